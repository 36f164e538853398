// What /login-failed may say. Its query string can be written by anyone (a link in an e-mail), so the page
// shows only these texts, chosen by the error code; the description in the URL is never shown.

export const SIGN_IN_ERROR_MESSAGES: Record<string, string> = {
  access_denied: "The sign-in was cancelled or refused at the sign-in provider.",
  email_not_verified: "Your e-mail address is not verified with the sign-in provider. Verify it there, then sign in again.",
  not_allowed: "This Reelsmith does not accept sign-ups from your e-mail address. Ask its operator to add you.",
  owner_not_allowed:
    "The owner account cannot be used through the built-in sign-in. The operator can allow it with BUILTIN_SIGNIN_ALLOWS_OWNER=true, or set up a real sign-in provider.",
  account_conflict: "An account with this e-mail address already signs in with another identity. Sign in the way you did before.",
  invalid_state: "The sign-in attempt expired or was started in another browser. Please sign in again.",
  invalid_grant: "The sign-in code expired or was already used. Please sign in again.",
  invalid_token: "The sign-in provider's answer was not issued for Reelsmith. Please sign in again.",
  invalid_profile: "The sign-in provider did not share an e-mail address.",
  userinfo_failed: "The sign-in provider did not return your profile. Please try again.",
  provider_unavailable: "The sign-in provider could not be reached. Please try again later.",
  too_many_attempts: "Too many sign-in attempts. Wait a minute, then try again.",
  server_error: "Something went wrong on our side while signing you in. Please try again.",
};

/** The known message for an error code, or null for a code this app never sends. */
export function signInErrorMessage(code: string): string | null {
  return Object.hasOwn(SIGN_IN_ERROR_MESSAGES, code) ? SIGN_IN_ERROR_MESSAGES[code]! : null;
}
