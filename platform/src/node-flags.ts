// The Node flags every platform process runs with in production: `npm start`, the cluster's
// children, the images' CMD and the manifests that name another entry carry the same list on node's
// command line (NODE_OPTIONS refuses --heap-growing-percent), which platform/test checks.

/**
 * Node 24's young generation grows its semi-spaces to 32 MB (Node 20: 16 MB), which put ~150 MB
 * on the bench's peak RSS with no speed gained; 16 MB takes that back.
 *
 * The old generation's cap also sets how far V8 lets it grow between full collections: with the
 * default cap of a big machine (4 GB) the single process's ~50 MB of live objects grew to ~240 MB
 * of heap under GET load before each mark-compact; a 1.5 GB cap holds that to about twice the live
 * set (more frequent full collections, no CPU difference measured) and is the same in every pod,
 * whatever memory its node or cgroup reports. It is still 25 times the largest live set measured.
 *
 * Between full collections V8 lets the old generation grow by a factor it picks from its own
 * speeds, up to 4: under the bench's calls (~67 MB live, much of it promoted for a call's second
 * of life) the heap reached ~200 MB. 1.5 took the single process's peak RSS from 358 to 322 MB
 * with no loss of requests per second or CPU per request; 1.25 reached 296 MB but cost the calls
 * ~15% more CPU each (BENCHMARKS.md).
 */
export const platformNodeFlags: readonly string[] = ['--max-semi-space-size=16', '--max-old-space-size=1536', '--heap-growing-percent=50'];
