// The TwiML telephony answers a Twilio-compatible carrier's voice webhooks with: connect the call's
// media to the voice runtime (Twilio Media Streams, the leg's media parameters as <Parameter>s),
// reject a call nobody takes, hang up a leg that already ended, or say a text and hang up.

const prolog = '<?xml version="1.0" encoding="UTF-8"?>';

/** Text safe inside an XML attribute value or element. */
const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

export function connectStreamTwiml(mediaUrl: string, parameters: Record<string, string>): string {
  const named = Object.entries(parameters)
    .map(([name, value]) => `<Parameter name="${escapeXml(name)}" value="${escapeXml(value)}"/>`)
    .join('');
  return `${prolog}<Response><Connect><Stream url="${escapeXml(mediaUrl)}">${named}</Stream></Connect></Response>`;
}

export const rejectTwiml = (): string => `${prolog}<Response><Reject/></Response>`;

export const hangupTwiml = (): string => `${prolog}<Response><Hangup/></Response>`;

/** Says `speech` twice (a listener may miss the start), then the call ends. */
export const sayTwiml = (speech: string): string => `${prolog}<Response><Say loop="2">${escapeXml(speech)}</Say></Response>`;
