// The HTML part of a message written as plain text: escaped, blank lines as paragraphs, line breaks kept.
import { escapeHtml } from '../invitations/message.js';

export const htmlOfText = (text: string): string => `<p>${escapeHtml(text).replace(/\n{2,}/g, '</p><p>').replace(/\n/g, '<br>')}</p>`;
