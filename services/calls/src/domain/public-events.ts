// The one allowlist of call events the API shows (SPEC.md 1 rule 3): every event the runtime or
// the calls service records is stored, and only these types are ever returned. Anything else
// (component fallbacks, session errors, usage bookings, whatever a runtime invents) stays internal.
export const publicCallEventTypes: ReadonlySet<string> = new Set([
  // Written by the calls service as the carrier reports the call.
  'call.ringing',
  'call.answered',
  'call.ended',
  // Reported by the voice runtime.
  'speech.started',
  'speech.ended',
  'assistant.interrupted',
  'tool.called',
  'tool.completed',
  'tool.failed',
  'dtmf.received',
  'voicemail.detected',
  'transfer.requested',
  'recording.ready',
  'analysis.ready',
]);

export const isPublicCallEvent = (type: string): boolean => publicCallEventTypes.has(type);
