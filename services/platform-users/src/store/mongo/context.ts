// What every part of the MongoDB store works on: the connection and the collections.
import type { MongoHandle } from '@voice/runtime/store/mongo';
import type { Collections } from './documents.js';

export interface MongoContext {
  handle: MongoHandle;
  collections: Collections;
}
