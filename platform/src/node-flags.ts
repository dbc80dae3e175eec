// The Node flags every platform process runs with in production: `npm start`, the cluster's
// children and the images (NODE_OPTIONS) carry the same list, which platform/test checks.

/**
 * Node 24's young generation grows its semi-spaces to 32 MB (Node 20: 16 MB), which put ~150 MB
 * on the bench's peak RSS with no speed gained; 16 MB brings it back under 300 MB.
 */
export const platformNodeFlags: readonly string[] = ['--max-semi-space-size=16'];
