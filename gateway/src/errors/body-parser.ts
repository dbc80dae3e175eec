// What went wrong when express's body parser (body-parser) refused a body, by its error `type`
// (or, for a compressed body whose bytes do not decompress, the zlib error it passes on);
// the REST and OAuth error handlers each phrase it in their own format.
export interface BodyParserFailure {
  kind: 'too_large' | 'too_many_fields' | 'malformed' | 'charset' | 'content_encoding' | 'undecodable' | 'aborted';
  status: number;
  message: string;
}

/** zlib's error codes (zlib, brotli, zstd): a body whose Content-Encoding does not match its bytes fails with one of these. */
const decompressionCode = /^(Z_|ERR__|ZSTD_error_)/;

export function bodyParserFailure(error: unknown): BodyParserFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, code, status } = error as { type?: unknown; code?: unknown; status?: unknown };
  switch (type) {
    case 'entity.too.large':
      return { kind: 'too_large', status: 413, message: 'the request body is too large' };
    case 'parameters.too.many':
      return { kind: 'too_many_fields', status: 413, message: 'the form has too many fields' };
    case 'entity.parse.failed':
    case 'entity.verify.failed':
    case 'querystring.parse.rangeError':
      return { kind: 'malformed', status: 400, message: 'the request body could not be parsed' };
    case 'charset.unsupported':
      return { kind: 'charset', status: 400, message: 'the request body must be UTF-8' };
    case 'encoding.unsupported':
      return { kind: 'content_encoding', status: 415, message: 'the Content-Encoding of the request body is not supported' };
    case 'request.aborted':
    case 'request.size.invalid':
      return { kind: 'aborted', status: 400, message: 'the request body was not received completely' };
  }
  if (status === 400 && typeof code === 'string' && decompressionCode.test(code)) {
    return { kind: 'undecodable', status: 400, message: 'the request body does not match its Content-Encoding' };
  }
  return undefined;
}
