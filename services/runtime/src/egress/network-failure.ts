// Why an outbound request failed, in the few stable words a caller may see. The raw error (an
// address and port, a TLS library's path, a resolver's answer) would make any endpoint that
// reports it a port scanner: it goes to the log, never to the caller.

export const networkFailureReasons = ['unreachable', 'timeout', 'tls_error', 'dns_error', 'bad_response'] as const;
export type NetworkFailureReason = (typeof networkFailureReasons)[number];

export const networkFailureMessages: Record<NetworkFailureReason, string> = {
  unreachable: 'the server could not be reached',
  timeout: 'the server did not answer in time',
  tls_error: 'a secure (TLS) connection to the server could not be established',
  dns_error: "the server's host name could not be resolved",
  bad_response: "the server's answer could not be used",
};

const dnsCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA', 'ESERVFAIL', 'ENOTIMP', 'EREFUSED', 'EBADNAME', 'ETIMEOUT']);
const timeoutCodes = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** OpenSSL's certificate verdicts and Node's TLS errors. */
const tlsCode = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;
/** llhttp's parse errors: the server answered, but not with HTTP. */
const parseCode = /^(HPE_|ERR_INVALID_HTTP_RESPONSE|ERR_HTTP_)/;

/** The error codes of a Node network error, read by shape (errors of Node internals may come from another realm). */
export function networkErrorCodes(error: unknown): string[] {
  if (typeof error !== 'object' || error === null) return [];
  // With happy eyeballs Node reports one failed connection attempt per address in an AggregateError.
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.length > 0) return errors.flatMap(networkErrorCodes);
  return typeof code === 'string' ? [code] : [];
}

export function networkFailureReasonOf(error: unknown): NetworkFailureReason {
  const codes = networkErrorCodes(error);
  const message = typeof error === 'object' && error !== null ? String((error as { message?: unknown }).message ?? '') : '';
  if (codes.some((code) => dnsCodes.has(code))) return 'dns_error';
  if (codes.some((code) => tlsCode.test(code)) || /\b(SSL|TLS)\b/.test(message)) return 'tls_error';
  if (codes.some((code) => timeoutCodes.has(code))) return 'timeout';
  if (codes.some((code) => parseCode.test(code))) return 'bad_response';
  return 'unreachable';
}
