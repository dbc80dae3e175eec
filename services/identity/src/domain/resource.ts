// RFC 8707 resource indicators as identity records them on grants: the gateway names its own
// resources (the REST API's origin, MCP's URL); identity only checks the form and compares.

/** An absolute URI without a fragment. */
export function isResourceIndicator(resource: string): boolean {
  return resource.length <= 2000 && !resource.includes('#') && URL.canParse(resource);
}
