// A path parameter that is not valid percent-encoding (`/tools/%FF`) names no resource. Express's
// router fails to decode it while matching, before any route runs, with a URIError it marks 400:
// every error handler reads that as "not found", never as a failure of ours.
export const isMalformedPathEncoding = (error: unknown): boolean =>
  error instanceof URIError && (error as { status?: unknown }).status === 400;

export const malformedPathMessage = 'nothing is found at a path that is not valid percent-encoding';
