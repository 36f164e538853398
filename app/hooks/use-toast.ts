// A tiny toast store: one toast at a time (the spec), a dismissed toast is removed after a long delay so
// Radix can animate it out. Call toast({ title, description, variant }) from anywhere in the browser.
import * as React from "react";
import { TOAST } from "~/lib/constants";
import type { ToastVariant } from "~/components/ui/toast";

export type ToastMessage = {
  id: string;
  title: string;
  description?: string;
  variant?: ToastVariant;
  open: boolean;
};

type Listener = (toasts: ToastMessage[]) => void;
let toasts: ToastMessage[] = [];
const listeners = new Set<Listener>();
const removals = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function publish(next: ToastMessage[]) {
  toasts = next;
  for (const listener of listeners) listener(toasts);
}

function scheduleRemoval(id: string) {
  if (removals.has(id)) return;
  removals.set(
    id,
    setTimeout(() => {
      removals.delete(id);
      publish(toasts.filter((t) => t.id !== id));
    }, TOAST.removeDelayMs),
  );
}

export function dismissToast(id?: string) {
  publish(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  for (const t of toasts) if (!t.open) scheduleRemoval(t.id);
}

export function toast(message: Omit<ToastMessage, "id" | "open">) {
  const id = String(++counter);
  publish([{ ...message, id, open: true }, ...toasts].slice(0, TOAST.limit));
  return id;
}

export function useToasts() {
  const [state, setState] = React.useState(toasts);
  React.useEffect(() => {
    listeners.add(setState);
    return () => {
      listeners.delete(setState);
    };
  }, []);
  return state;
}
