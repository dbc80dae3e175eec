// Bus subjects shared by publishers and subscribers in different services.

/** voice.identity.v1.CredentialsRevoked: every cache of Authenticate answers drops the named credentials. */
export const credentialsRevokedSubject = 'identity.credentials.revoked';
