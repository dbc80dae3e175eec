// What went wrong when express's body parser (body-parser) refused a body, by its error `type`;
// the REST and OAuth error handlers each phrase it in their own format.
export interface BodyParserFailure {
  kind: 'too_large' | 'malformed' | 'encoding' | 'aborted';
  status: number;
  message: string;
}

export function bodyParserFailure(error: unknown): BodyParserFailure | undefined {
  const type = typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
  switch (type) {
    case 'entity.too.large':
      return { kind: 'too_large', status: 413, message: 'the request body is too large' };
    case 'entity.parse.failed':
    case 'entity.verify.failed':
      return { kind: 'malformed', status: 400, message: 'the request body could not be parsed' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { kind: 'encoding', status: 400, message: 'the request body must be UTF-8' };
    case 'request.aborted':
    case 'request.size.invalid':
      return { kind: 'aborted', status: 400, message: 'the request body was not received completely' };
    default:
      return undefined;
  }
}
