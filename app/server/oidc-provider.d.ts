// The part of oidc-provider's API (it ships no types) that app/server/oidc-provider.server.ts uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface InteractionDetails {
    uid: string;
    prompt: { name: "login" | "consent" | string; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id?: string };
    session?: { accountId: string };
    grantId?: string;
  }

  export interface GrantInstance {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(indicator: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface GrantClass {
    new (init: { accountId: string; clientId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export interface KoaContextLike {
    type: string;
    body: unknown;
  }

  export type Configuration = Record<string, unknown> & {
    findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined> | Account | undefined;
    renderError?: (ctx: KoaContextLike, out: Record<string, string>, error: Error) => void | Promise<void>;
  };

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    proxy: boolean;
    readonly issuer: string;
    Grant: GrantClass;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
