// Personal API tokens' fixed choices (issue 32, decision 160), shared by the settings card and the server.
export const API_TOKEN_PREFIX = "rs_pat_";
export const API_TOKEN_SCOPES = ["read", "full"] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
/** Expiry choices on the settings card, in days; null: never. */
export const API_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const MAX_API_TOKENS_PER_USER = 20;
export const API_TOKEN_NAME_MAX = 60;

/** A token as the settings card lists it: never its secret. */
export type ApiTokenView = {
  id: string;
  name: string;
  prefix: string;
  scope: ApiTokenScope;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  expired: boolean;
};
