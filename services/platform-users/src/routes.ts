// The one registration point of the platform-users service's Connect routes.
import type { ConnectRouter } from '@connectrpc/connect';
import { CustomDomainService } from '@voice/proto/voice/platform/v1/custom_domains';
import { EmailSenderService, WorkspaceEmailService } from '@voice/proto/voice/platform/v1/email';
import { NoticeService } from '@voice/proto/voice/platform/v1/notices';
import { PlatformUserService } from '@voice/proto/voice/platform/v1/platform_users';
import { EmailSenders, type EmailSenderDeps } from './email/senders.js';
import { WorkspaceEmails, type WorkspaceEmailDeps } from './email/workspace-emails.js';
import { Notices, type NoticeDeps } from './notices/notices.js';
import { CustomDomainServiceImpl, PlatformUserServiceImpl, type CustomDomainDeps, type PlatformUserDeps } from './service.js';

export const platformUsersServiceNames = [
  CustomDomainService.typeName,
  PlatformUserService.typeName,
  NoticeService.typeName,
  EmailSenderService.typeName,
  WorkspaceEmailService.typeName,
];

export interface PlatformUsersRoutesDeps {
  customDomains: CustomDomainDeps;
  platformUsers: PlatformUserDeps;
  notices: NoticeDeps;
  emailSenders: EmailSenderDeps;
  workspaceEmails: WorkspaceEmailDeps;
}

export const platformUsersRoutes = (deps: PlatformUsersRoutesDeps) => (router: ConnectRouter) => {
  router.service(CustomDomainService, new CustomDomainServiceImpl(deps.customDomains));
  router.service(PlatformUserService, new PlatformUserServiceImpl(deps.platformUsers));
  const notices = new Notices(deps.notices);
  router.service(NoticeService, { sendWorkspaceNotice: (request, context) => notices.send(request, context) });
  router.service(EmailSenderService, new EmailSenders(deps.emailSenders));
  router.service(WorkspaceEmailService, new WorkspaceEmails(deps.workspaceEmails));
};
