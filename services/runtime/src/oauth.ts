// The OAuth rules identity enforces that the gateway states too: how long each credential lives
// (its documents say it) and the bounds of a client registration (its endpoint checks them first).

/** How long each OAuth credential lives, in seconds. */
export const accessTokenSeconds = 3600;
export const refreshTokenSeconds = 30 * 24 * 3600;
export const authorizationCodeSeconds = 60;

/** A registration lists 1 to this many redirect URIs. */
export const maxRedirectUris = 20;
/** A URI of a client (a redirect URI, its client_uri, the address of its metadata document) is at most this long. */
export const maxClientUriLength = 2000;
/** A client's name, trimmed, is at most this long. */
export const maxClientNameLength = 200;
