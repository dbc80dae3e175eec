// The pages an e-mail sender's confirmation link opens: the address and a button (a mail scanner
// that fetches the link confirms nothing), then the outcome.
import { escapeHtml, page } from '../oauth/page/html.js';

export const confirmSenderPage = (platformName: string, address: string, action: string): string =>
  page(
    'Confirm the e-mail sender',
    platformName,
    `<h1>Confirm ${escapeHtml(address)}</h1>
<p class="muted">A workspace on ${escapeHtml(platformName)} asked to send e-mail from this address. Confirm only if you expected it.</p>
<form method="post" action="${escapeHtml(action)}">
<div class="actions"><button class="approve" type="submit">Confirm the address</button></div>
</form>`,
  );

export const senderConfirmedPage = (platformName: string, address: string): string =>
  page('E-mail sender confirmed', platformName, `<h1>Address confirmed</h1>\n<p class="muted">The workspace may now send e-mail from ${escapeHtml(address)}.</p>`);
