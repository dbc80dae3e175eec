// How each store adapter keeps the values its engine has no type for: SQLite a flag as 0/1 and a
// list as JSON text, MongoDB both as they are. A service's entity mappers (store/mapping) take one
// of these, so one mapper serves both adapters.
export interface StoredValues<Flag, List> {
  flag(value: boolean): Flag;
  isSet(flag: Flag): boolean;
  list(items: readonly string[]): List;
  items(list: List): string[];
}

export const sqliteValues: StoredValues<number, string> = {
  flag: (value) => (value ? 1 : 0),
  isSet: (flag) => flag === 1,
  list: (items) => JSON.stringify(items),
  items: (list) => JSON.parse(list) as string[],
};

export const mongoValues: StoredValues<boolean, string[]> = {
  flag: (value) => value,
  isSet: (flag) => flag,
  list: (items) => [...items],
  items: (list) => list,
};
