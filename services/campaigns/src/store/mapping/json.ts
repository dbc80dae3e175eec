// How each adapter keeps an object: SQLite as JSON text, MongoDB as a document (whose keys the
// contracts restrict to plain names, so none holds "." or "$"). One mapper per entity takes either.
export interface StoredJson<Json> {
  encode(value: object): Json;
  decode<T>(stored: Json): T;
}

export const sqliteJson: StoredJson<string> = {
  encode: (value) => JSON.stringify(value),
  decode: <T>(stored: string) => JSON.parse(stored) as T,
};

export const mongoJson: StoredJson<object> = {
  encode: (value) => structuredClone(value),
  decode: <T>(stored: object) => stored as T,
};
