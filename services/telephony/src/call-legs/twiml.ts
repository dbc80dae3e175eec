// The TwiML telephony answers a Twilio-compatible carrier's voice webhooks with: connect the call's
// media to the voice runtime (Twilio Media Streams, the leg's media parameters as <Parameter>s),
// reject a call nobody takes, or hang up a leg that already ended.

const prolog = '<?xml version="1.0" encoding="UTF-8"?>';

/** Text safe inside an XML attribute value. */
const attribute = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

export function connectStreamTwiml(mediaUrl: string, parameters: Record<string, string>): string {
  const named = Object.entries(parameters)
    .map(([name, value]) => `<Parameter name="${attribute(name)}" value="${attribute(value)}"/>`)
    .join('');
  return `${prolog}<Response><Connect><Stream url="${attribute(mediaUrl)}">${named}</Stream></Connect></Response>`;
}

export const rejectTwiml = (): string => `${prolog}<Response><Reject/></Response>`;

export const hangupTwiml = (): string => `${prolog}<Response><Hangup/></Response>`;
