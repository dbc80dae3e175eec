// What each plan may keep in knowledge bases: documents and bytes in the whole workspace, and the
// largest single document (an upload or a fetched page past it is refused as too large).
import type { Plan } from '@voice/runtime/access';

export interface KnowledgeLimits {
  documents: number;
  bytes: number;
  documentBytes: number;
}

const kib = 1024;
const mib = 1024 * kib;

export const knowledgeLimits: Readonly<Record<Plan, KnowledgeLimits>> = Object.freeze({
  starter: { documents: 20, bytes: 5 * mib, documentBytes: 512 * kib },
  pro: { documents: 500, bytes: 100 * mib, documentBytes: 5 * mib },
  enterprise: { documents: 5000, bytes: 1024 * mib, documentBytes: 20 * mib },
});
