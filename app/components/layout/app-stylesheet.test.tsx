import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { builtStylesheetText } from "~/server/stylesheet-text.server";
import { AppStylesheet, StylesheetTextProvider } from "./app-stylesheet";

describe("AppStylesheet", () => {
  it("inlines the stylesheet's text when the server has it", () => {
    const html = renderToStaticMarkup(
      <StylesheetTextProvider value={(href) => (href === "/assets/tailwind-x.css" ? "body{margin:0}" : null)}>
        <AppStylesheet href="/assets/tailwind-x.css" />
      </StylesheetTextProvider>,
    );
    expect(html).toBe('<style id="app-stylesheet">body{margin:0}</style>');
  });

  it("links it when there is no built file (development) or no server text", () => {
    const linked = '<link rel="stylesheet" href="/app/tailwind.css"/>';
    expect(renderToStaticMarkup(<StylesheetTextProvider value={() => null}><AppStylesheet href="/app/tailwind.css" /></StylesheetTextProvider>)).toBe(linked);
    expect(renderToStaticMarkup(<AppStylesheet href="/app/tailwind.css" />)).toBe(linked);
  });

  it("reads only built CSS assets", () => {
    expect(builtStylesheetText("/app/tailwind.css")).toBeNull();
    expect(builtStylesheetText("/assets/../../package.json")).toBeNull();
    expect(builtStylesheetText("/assets/no-such-file-0000.css")).toBeNull();
  });
});
