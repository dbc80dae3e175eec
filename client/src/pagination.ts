// Every item of a list operation, fetched page by page with limit and offset until the API's total
// is reached (`offset + limit >= meta.pagination.total`), typed by the operation's answer.
import type { VoiceClient } from './client.js';
import { orThrow } from './errors.js';
import type { components, paths } from './generated/openapi.js';

type Pagination = components['schemas']['Pagination'];
type JsonOf<Operation> = Operation extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;
type ListBody = { data: unknown[]; meta: { pagination: Pagination } };

/** The paths whose GET is a paginated list. */
export type ListPath = {
  [Path in keyof paths]: paths[Path] extends { get: infer Operation } ? (JsonOf<Operation> extends ListBody ? Path : never) : never;
}[keyof paths];

type ListOperation<Path extends ListPath> = paths[Path]['get'];
type Parameters<Path extends ListPath> = ListOperation<Path> extends { parameters: infer P } ? P : never;
/** The item type a list path answers. */
export type ListItem<Path extends ListPath> = JsonOf<ListOperation<Path>> extends { data: (infer Item)[] } ? Item : never;
/** A list's filters: its query without limit and offset, which the iterator sets. */
type Filters<Path extends ListPath> = Omit<NonNullable<Parameters<Path> extends { query?: infer Q } ? Q : never>, 'limit' | 'offset'>;
type PathParameters<Path extends ListPath> = Parameters<Path> extends { path: infer P } ? P : never;

export type PaginateOptions<Path extends ListPath> = {
  /** Items per request, 1 to 200 (the API's maximum, the default: fewest requests). */
  pageSize?: number;
  /** Start after this many items. */
  offset?: number;
  query?: Filters<Path>;
  signal?: AbortSignal;
} & ([PathParameters<Path>] extends [never] ? { path?: never } : { path: PathParameters<Path> });

type OptionsArgument<Path extends ListPath> = [PathParameters<Path>] extends [never]
  ? [options?: PaginateOptions<Path>]
  : [options: PaginateOptions<Path>];

const maxPageSize = 200;

/** Each item of the list at `path`, in the API's order, requesting the next page only when the previous one is used up. */
export async function* paginate<Path extends ListPath>(
  client: VoiceClient,
  path: Path,
  ...[options]: OptionsArgument<Path>
): AsyncGenerator<ListItem<Path>, void, undefined> {
  const pageSize = options?.pageSize ?? maxPageSize;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > maxPageSize) throw new RangeError(`pageSize must be an integer from 1 to ${maxPageSize}, not ${pageSize}`);
  let offset = options?.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw new RangeError(`offset must be an integer of at least 0, not ${offset}`);
  // openapi-fetch's GET is typed per literal path; this one is generic, and its parameters were checked above.
  const get = client.GET as (path: string, init: object) => ReturnType<VoiceClient['GET']>;
  for (;;) {
    const page = (await orThrow(
      get(path, {
        params: { path: options?.path, query: { ...options?.query, limit: pageSize, offset } },
        ...(options?.signal ? { signal: options.signal } : {}),
      }),
    )) as unknown as { data: ListItem<Path>[]; meta: { pagination: Pagination } };
    yield* page.data;
    offset += page.data.length;
    // An empty page ends the walk too: items deleted meanwhile can leave total above what is left.
    if (page.data.length === 0 || offset >= page.meta.pagination.total) return;
  }
}
