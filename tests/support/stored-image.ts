// The stored original's pixel size behind a page's <img>. A scene image offers sized variants through srcset
// (issue 36), so its naturalWidth is the chosen variant's width over its density; its src is still the original.
import type { Locator } from "playwright-core";

export function storedImageSize(img: Locator): Promise<[number, number]> {
  return img.evaluate(
    (el: HTMLImageElement) =>
      new Promise<[number, number]>((resolve, reject) => {
        const original = new Image();
        original.onload = () => resolve([original.naturalWidth, original.naturalHeight]);
        original.onerror = () => reject(new Error(`could not load ${el.getAttribute("src")}`));
        original.src = el.getAttribute("src") ?? "";
      }),
  );
}
