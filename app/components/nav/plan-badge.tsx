import { cn } from "~/lib/utils";
import type { AccessLevel } from "~/lib/subscription";

/** What the account may do: admin, self-hosted mode (billing off: everything), premium, or the free plan. */
export function planLabel(accessLevel: AccessLevel, selfHosted: boolean): { label: string; hint: string } {
  if (accessLevel === "admin") return { label: "Admin", hint: "The owner account: every feature, no subscription needed." };
  if (selfHosted) return { label: "Self-hosted mode", hint: "Billing is not configured on this server, so every signed-in user has every feature." };
  if (accessLevel === "premium") return { label: "Premium", hint: "Unlimited projects, HD and 4K, background music and direct upload." };
  return { label: "Free plan", hint: "One project, up to 720p, no background music, no direct upload." };
}

export function PlanBadge({ accessLevel, selfHosted, className }: { accessLevel: AccessLevel; selfHosted: boolean; className?: string }) {
  const { label, hint } = planLabel(accessLevel, selfHosted);
  return (
    <span
      title={hint}
      className={cn(
        "rounded-full border px-2.5 py-0.5 text-xs font-medium",
        accessLevel === "free" ? "border-slate-600 text-slate-300" : "border-brand/60 bg-brand/15 text-violet-200",
        className,
      )}
    >
      {label}
    </span>
  );
}
