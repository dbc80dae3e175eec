// The services a campaign is checked against, asked as the campaigns service on behalf of the caller's
// workspace: assistants (the assistant it runs exists there) and telephony (the numbers it calls from
// are the workspace's and carry voice; which leads' numbers are on the suppression list, in one call).
import { Code, ConnectError, createClient, type Client, type Transport } from '@connectrpc/connect';
import { callHeaders, serviceCaller, type CallerSigner, type WorkspaceCaller } from '@voice/runtime/caller';
import { AssistantDirectory } from '@voice/runtime/internal';
import { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import { CallRouteService } from '@voice/proto/voice/telephony/v1/call_routes';

export interface CampaignPeers {
  assistantExists(caller: WorkspaceCaller, id: string): Promise<boolean>;
  /** Whether each id names a number of the workspace that can place voice calls ('missing' when it names none). */
  callingNumbers(caller: WorkspaceCaller, ids: readonly string[]): Promise<Map<string, 'voice' | 'no_voice' | 'missing'>>;
  /** The numbers among `numbers` (E.164) on the workspace's suppression list. */
  suppressedAmong(caller: WorkspaceCaller, numbers: readonly string[]): Promise<Set<string>>;
  /** The E.164 number of the workspace's number `id`; undefined when it has none by that id. */
  numberOf(caller: WorkspaceCaller, id: string): Promise<string | undefined>;
}

export class ConnectCampaignPeers implements CampaignPeers {
  private readonly assistants: AssistantDirectory;
  private readonly numbers: Client<typeof TelephonyService>;
  private readonly routes: Client<typeof CallRouteService>;

  constructor(
    transports: { assistants: Transport; telephony: Transport },
    private readonly signer: CallerSigner,
  ) {
    this.assistants = new AssistantDirectory(transports.assistants, signer, 'campaigns');
    this.numbers = createClient(TelephonyService, transports.telephony);
    this.routes = createClient(CallRouteService, transports.telephony);
  }

  /** Internal calls in the caller's workspace, under the caller's request id. */
  private options(caller: WorkspaceCaller) {
    return { headers: callHeaders(this.signer, serviceCaller('campaigns', caller.workspaceId, caller.requestId)) };
  }

  assistantExists(caller: WorkspaceCaller, id: string): Promise<boolean> {
    return this.assistants.exists(caller, id);
  }

  async callingNumbers(caller: WorkspaceCaller, ids: readonly string[]): Promise<Map<string, 'voice' | 'no_voice' | 'missing'>> {
    const answers = await Promise.all(
      ids.map(async (id) => {
        try {
          const { number } = await this.numbers.getNumber({ id }, this.options(caller));
          return [id, number?.voiceCapable ? 'voice' : 'no_voice'] as const;
        } catch (error) {
          if (ConnectError.from(error).code === Code.NotFound) return [id, 'missing'] as const;
          throw error;
        }
      }),
    );
    return new Map(answers);
  }

  async numberOf(caller: WorkspaceCaller, id: string): Promise<string | undefined> {
    try {
      const { number } = await this.numbers.getNumber({ id }, this.options(caller));
      return number?.number;
    } catch (error) {
      if (ConnectError.from(error).code === Code.NotFound) return undefined;
      throw error;
    }
  }

  async suppressedAmong(caller: WorkspaceCaller, numbers: readonly string[]): Promise<Set<string>> {
    if (numbers.length === 0) return new Set();
    const { suppressed } = await this.routes.filterSuppressed({ numbers: [...numbers] }, this.options(caller));
    return new Set(suppressed);
  }
}
