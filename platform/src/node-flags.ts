// The Node flags every platform process runs with in production: `npm start`, the cluster's
// children and the images (NODE_OPTIONS) carry the same list, which platform/test checks.

/**
 * Node 24's young generation grows its semi-spaces to 32 MB (Node 20: 16 MB), which put ~150 MB
 * on the bench's peak RSS with no speed gained; 16 MB takes that back.
 *
 * The old generation's cap also sets how far V8 lets it grow between full collections: with the
 * default cap of a big machine (4 GB) the single process's ~50 MB of live objects grew to ~240 MB
 * of heap under GET load before each mark-compact; a 1.5 GB cap holds that to about twice the live
 * set (more frequent full collections, no CPU difference measured) and is the same in every pod,
 * whatever memory its node or cgroup reports. It is still 25 times the largest live set measured.
 */
export const platformNodeFlags: readonly string[] = ['--max-semi-space-size=16', '--max-old-space-size=1536'];
