// The references an assistant holds to other resources, and those others hold to it: its tool_ids
// must name tools of the workspace (asked of the tools service), its knowledge_base_ids knowledge
// bases, its assistant_transfer items assistants of the workspace, and its analysis plan's summary
// e-mail a verified e-mail sender (asked of platform-users); while a phone number (telephony) or a builtin tool (tools) names an
// assistant, the assistant cannot be deleted.
import type { JsonObject } from '@bufbuild/protobuf';
import { Code, ConnectError, type Client } from '@connectrpc/connect';
import { callHeaders, serviceCaller, type Caller, type CallerSigner } from '@voice/runtime/caller';
import { invalidRequest, serviceError, type FieldIssue } from '@voice/runtime/errors';
import { unknownAssistantIssue } from '@voice/runtime/internal';
import type { EmailSenderService } from '@voice/proto/voice/platform/v1/email';
import type { TelephonyService } from '@voice/proto/voice/telephony/v1/telephony';
import type { ToolsService } from '@voice/proto/voice/tools/v1/tools';
import type { AssistantStore, KnowledgeStore } from '../store/store.js';

export interface ReferencesDeps {
  tools: Client<typeof ToolsService>;
  telephony: Client<typeof TelephonyService>;
  emailSenders: Client<typeof EmailSenderService>;
  signer: CallerSigner;
  assistants: Pick<AssistantStore, 'get'>;
  knowledge: Pick<KnowledgeStore, 'existingKnowledgeBases'>;
}

export class References {
  constructor(private readonly deps: ReferencesDeps) {}

  /** Headers of a call made for `caller`'s workspace by this service. */
  private options(caller: Caller) {
    return { headers: callHeaders(this.deps.signer, serviceCaller('assistants', caller.workspaceId, caller.requestId)) };
  }

  /**
   * Checks the references among `fields` of a configuration (the fields a write sent; every field
   * for a create or a restore), or throws the 400 naming each that points nowhere.
   */
  async check(caller: Caller, config: JsonObject, fields: readonly string[]): Promise<void> {
    const issues: FieldIssue[] = [];
    if (fields.includes('tool_ids')) issues.push(...(await this.toolIssues(caller, config.tool_ids as string[])));
    if (fields.includes('builtin_tools')) issues.push(...(await this.assistantIssues(caller, config.builtin_tools as JsonObject[])));
    if (fields.includes('knowledge_base_ids')) issues.push(...(await this.knowledgeBaseIssues(caller, config.knowledge_base_ids as string[])));
    if (fields.includes('analysis_plan')) issues.push(...(await this.summaryEmailIssues(caller, config.analysis_plan as JsonObject)));
    if (issues.length > 0) throw invalidRequest(issues);
  }

  /** A summary e-mail goes out only from a sender the workspace has verified: a pending or unknown one is refused now. */
  private async summaryEmailIssues(caller: Caller, plan: JsonObject): Promise<FieldIssue[]> {
    const summaryEmail = plan.summary_email as JsonObject | undefined;
    if (!summaryEmail) return [];
    const issue = { field: 'analysis_plan.summary_email.sender_id', issue: 'is not a verified e-mail sender of this workspace' };
    try {
      const { sender } = await this.deps.emailSenders.getEmailSender({ id: summaryEmail.sender_id as string }, this.options(caller));
      return sender?.status === 'verified' ? [] : [issue];
    } catch (error) {
      if (ConnectError.from(error).code === Code.NotFound) return [issue];
      throw error;
    }
  }

  private async toolIssues(caller: Caller, ids: string[]): Promise<FieldIssue[]> {
    const found = await Promise.all(
      ids.map(async (id) => {
        try {
          await this.deps.tools.getTool({ id }, this.options(caller));
          return true;
        } catch (error) {
          if (ConnectError.from(error).code === Code.NotFound) return false;
          throw error;
        }
      }),
    );
    return ids.flatMap((_, index) => (found[index] ? [] : [{ field: `tool_ids.${index}`, issue: 'is not a tool of this workspace' }]));
  }

  private async knowledgeBaseIssues(caller: Caller, ids: string[]): Promise<FieldIssue[]> {
    if (ids.length === 0) return [];
    const existing = await this.deps.knowledge.existingKnowledgeBases(caller.workspaceId, ids);
    return ids.flatMap((id, index) => (existing.has(id) ? [] : [{ field: `knowledge_base_ids.${index}`, issue: 'is not a knowledge base of this workspace' }]));
  }

  private async assistantIssues(caller: Caller, items: JsonObject[]): Promise<FieldIssue[]> {
    const issues: FieldIssue[] = [];
    for (const [index, item] of items.entries()) {
      if (typeof item.assistant_id !== 'string') continue;
      if (!(await this.deps.assistants.get(caller.workspaceId, item.assistant_id))) {
        issues.push({ field: `builtin_tools.${index}.assistant_id`, issue: unknownAssistantIssue });
      }
    }
    return issues;
  }

  /** Refuses (409) while a phone number or a builtin tool of the workspace names the assistant. */
  async ensureUnused(caller: Caller, assistantId: string): Promise<void> {
    const page = { limit: 1, offset: 0 };
    const [numbers, tools] = await Promise.all([
      this.deps.telephony.listNumbers({ assistantId, page }, this.options(caller)),
      this.deps.tools.listTools({ assistantId, page }, this.options(caller)),
    ]);
    const uses = [
      ...(numbers.total > 0 ? [`${numbers.total} phone number${numbers.total === 1 ? '' : 's'}`] : []),
      ...(tools.total > 0 ? [`${tools.total} builtin tool${tools.total === 1 ? '' : 's'}`] : []),
    ];
    if (uses.length > 0) {
      throw serviceError('conflict', `the assistant is still used by ${uses.join(' and ')}; point them at another assistant first`);
    }
  }
}
