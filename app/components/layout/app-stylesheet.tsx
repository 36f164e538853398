// The app's stylesheet, inlined in the page when the server has it built (issue 36, decision 134's second
// round): 33 KiB, 7 KiB compressed, and the only thing a first paint waited for besides the page itself. Inline,
// the browser paints once the HTML is parsed, one round trip sooner on a phone. Hydration keeps the server's
// <style> as it is (its text is read back from the page); without a built file (development) it stays a <link>.
import { createContext, useContext } from "react";

const ID = "app-stylesheet";
const StylesheetText = createContext<((href: string) => string | null) | undefined>(undefined);

/** Set by the server's entry: the built stylesheet's text for its URL, or null to link it. */
export const StylesheetTextProvider = StylesheetText.Provider;

export function AppStylesheet({ href }: { href: string }) {
  const read = useContext(StylesheetText);
  const css = read ? read(href) : typeof document === "undefined" ? null : (document.getElementById(ID)?.textContent ?? null);
  if (css === null) return <link rel="stylesheet" href={href} />;
  return <style id={ID} dangerouslySetInnerHTML={{ __html: css }} />;
}
