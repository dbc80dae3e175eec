// The TelephonyService: phone numbers (bought or imported), carrier connections and their
// callbacks, A2P campaigns, the suppression list and SMS. It checks who may call each RPC and
// delegates to the area that owns it (numbers/, carriers/, sms/).
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import type {
  AddSuppressionRequest,
  BuyNumberRequest,
  CreateA2pCampaignRequest,
  CreateCarrierConnectionRequest,
  DeleteCarrierConnectionRequest,
  GetA2pCampaignRequest,
  GetCarrierConnectionRequest,
  GetMessageRequest,
  GetNumberRequest,
  HandleCarrierCallbackRequest,
  ImportNumberRequest,
  ListA2pCampaignsRequest,
  ListCarrierConnectionsRequest,
  ListMessagesRequest,
  ListNumbersRequest,
  ListSuppressionsRequest,
  ReleaseNumberRequest,
  RemoveSuppressionRequest,
  SearchAvailableNumbersRequest,
  SendSmsRequest,
  TestCarrierConnectionRequest,
  UpdateCarrierConnectionRequest,
  UpdateNumberRequest,
  TelephonyService,
} from '@voice/proto/voice/telephony/v1/telephony';
import { callerOf, workspaceCallerOf } from '@voice/runtime/caller';
import { carrierCallbacks } from './carriers/callbacks.js';
import { carrierConnections } from './carriers/connections.js';
import { phoneNumbers } from './numbers/phone-numbers.js';
import { a2pCampaigns } from './sms/campaigns.js';
import { smsMessages } from './sms/messages.js';
import { suppressionList } from './sms/suppressions.js';
import type { TelephonyDeps } from './deps.js';

export class TelephonyServiceImpl implements ServiceImpl<typeof TelephonyService> {
  private readonly numbers: ReturnType<typeof phoneNumbers>;
  private readonly connections: ReturnType<typeof carrierConnections>;
  private readonly callbacks: ReturnType<typeof carrierCallbacks>;
  private readonly campaigns: ReturnType<typeof a2pCampaigns>;
  private readonly suppressions: ReturnType<typeof suppressionList>;
  private readonly messages: ReturnType<typeof smsMessages>;

  constructor(deps: TelephonyDeps) {
    this.numbers = phoneNumbers(deps);
    this.connections = carrierConnections(deps);
    this.callbacks = carrierCallbacks(deps);
    this.campaigns = a2pCampaigns(deps);
    this.suppressions = suppressionList(deps);
    this.messages = smsMessages(deps);
  }

  searchAvailableNumbers(request: SearchAvailableNumbersRequest, context: HandlerContext) {
    workspaceCallerOf(context);
    return this.numbers.searchAvailableNumbers(request);
  }

  buyNumber(request: BuyNumberRequest, context: HandlerContext) {
    return this.numbers.buyNumber(request, workspaceCallerOf(context));
  }

  importNumber(request: ImportNumberRequest, context: HandlerContext) {
    return this.numbers.importNumber(request, workspaceCallerOf(context));
  }

  listNumbers(request: ListNumbersRequest, context: HandlerContext) {
    return this.numbers.listNumbers(request, workspaceCallerOf(context));
  }

  getNumber(request: GetNumberRequest, context: HandlerContext) {
    return this.numbers.getNumber(request, workspaceCallerOf(context));
  }

  updateNumber(request: UpdateNumberRequest, context: HandlerContext) {
    return this.numbers.updateNumber(request, workspaceCallerOf(context));
  }

  releaseNumber(request: ReleaseNumberRequest, context: HandlerContext) {
    return this.numbers.releaseNumber(request, workspaceCallerOf(context));
  }

  createCarrierConnection(request: CreateCarrierConnectionRequest, context: HandlerContext) {
    return this.connections.createCarrierConnection(request, workspaceCallerOf(context));
  }

  listCarrierConnections(request: ListCarrierConnectionsRequest, context: HandlerContext) {
    return this.connections.listCarrierConnections(request, workspaceCallerOf(context));
  }

  getCarrierConnection(request: GetCarrierConnectionRequest, context: HandlerContext) {
    return this.connections.getCarrierConnection(request, workspaceCallerOf(context));
  }

  updateCarrierConnection(request: UpdateCarrierConnectionRequest, context: HandlerContext) {
    return this.connections.updateCarrierConnection(request, workspaceCallerOf(context));
  }

  deleteCarrierConnection(request: DeleteCarrierConnectionRequest, context: HandlerContext) {
    return this.connections.deleteCarrierConnection(request, workspaceCallerOf(context));
  }

  testCarrierConnection(request: TestCarrierConnectionRequest, context: HandlerContext) {
    return this.connections.testCarrierConnection(request, workspaceCallerOf(context));
  }

  handleCarrierCallback(request: HandleCarrierCallbackRequest, context: HandlerContext) {
    // A callback names no workspace: any signed caller (the gateway) may hand one in; its signature decides.
    callerOf(context);
    return this.callbacks.handleCarrierCallback(request);
  }

  createA2pCampaign(request: CreateA2pCampaignRequest, context: HandlerContext) {
    return this.campaigns.createA2pCampaign(request, workspaceCallerOf(context));
  }

  listA2pCampaigns(request: ListA2pCampaignsRequest, context: HandlerContext) {
    return this.campaigns.listA2pCampaigns(request, workspaceCallerOf(context));
  }

  getA2pCampaign(request: GetA2pCampaignRequest, context: HandlerContext) {
    return this.campaigns.getA2pCampaign(request, workspaceCallerOf(context));
  }

  listSuppressions(request: ListSuppressionsRequest, context: HandlerContext) {
    return this.suppressions.listSuppressions(request, workspaceCallerOf(context));
  }

  addSuppression(request: AddSuppressionRequest, context: HandlerContext) {
    return this.suppressions.addSuppression(request, workspaceCallerOf(context));
  }

  removeSuppression(request: RemoveSuppressionRequest, context: HandlerContext) {
    return this.suppressions.removeSuppression(request, workspaceCallerOf(context));
  }

  sendSms(request: SendSmsRequest, context: HandlerContext) {
    return this.messages.sendSms(request, workspaceCallerOf(context));
  }

  listMessages(request: ListMessagesRequest, context: HandlerContext) {
    return this.messages.listMessages(request, workspaceCallerOf(context));
  }

  getMessage(request: GetMessageRequest, context: HandlerContext) {
    return this.messages.getMessage(request, workspaceCallerOf(context));
  }
}
