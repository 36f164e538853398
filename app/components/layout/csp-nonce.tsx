// The Content-Security-Policy nonce of the page being rendered (decision 052). The server renders every inline
// script Remix writes (hydration data, scroll restoration, single-fetch streams) with it; in the browser the
// context is empty: the scripts are already on the page, and browsers hide a nonce from the DOM anyway.
import { createContext, useContext } from "react";

const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
