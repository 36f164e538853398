// Subscription Management (spec section 2): the plan's status and period, and what the account can do with
// it: subscribe (Stripe Checkout), cancel at period end, open the billing portal. Admins see no subscribe or
// cancel control; with billing off the page says so and calls nothing.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, CreditCard, Crown, ExternalLink, Info, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { PLAN_FEATURES, planState, SUBSCRIPTION_PRICE_LABEL, type PlanState, type SubscriptionStatusData } from "~/lib/subscription";
import { cn } from "~/lib/utils";

export const SUBSCRIPTION_STATUS_KEY = ["subscription-status"];
const CHECKOUT_CONFIRM_POLL_MS = 3000;

const formatDate = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }) : "unknown";

const STATE_TEXT: Record<PlanState, { badge: string; title: string }> = {
  off: { badge: "Self-hosted mode", title: "Billing is off" },
  admin: { badge: "Admin", title: "Admin access" },
  free: { badge: "Free", title: "Free plan" },
  premium: { badge: "Active", title: "Premium" },
  canceling: { badge: "Canceling", title: "Premium (canceling)" },
  lapsed: { badge: "Payment due", title: "Premium paused" },
};

function FeatureList({ items, muted }: { items: readonly string[]; muted?: boolean }) {
  return (
    <ul className="grid gap-2 text-sm">
      {items.map((item) => (
        <li key={item} className={cn("flex items-start gap-2", muted ? "text-slate-400" : "text-slate-200")}>
          <CheckCircle2 className={cn("mt-0.5 h-4 w-4 shrink-0", muted ? "text-slate-400" : "text-brand")} aria-hidden />
          {item}
        </li>
      ))}
    </ul>
  );
}

export function SubscriptionView({ initial, checkout }: { initial: SubscriptionStatusData; checkout: "success" | "cancelled" | null }) {
  const queryClient = useQueryClient();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const status = useQuery({
    queryKey: SUBSCRIPTION_STATUS_KEY,
    queryFn: () => apiGet<SubscriptionStatusData>("/api/subscription/status"),
    initialData: initial,
    // Back from Checkout: the plan changes when Stripe's event arrives, so look again until it has.
    refetchInterval: (query) =>
      checkout === "success" && query.state.data?.billingEnabled && !query.state.data.hasActiveSubscription && query.state.dataUpdateCount < 40
        ? CHECKOUT_CONFIRM_POLL_MS
        : false,
  });
  const data = status.data ?? initial;
  const state = planState(data);
  const text = STATE_TEXT[state];
  const sub = data.subscription;

  const subscribe = useMutation({
    mutationFn: () => apiRequest<{ checkoutUrl: string }>("POST", "/api/subscription/checkout"),
    onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
    onError: (error) => toast({ title: "Error", description: serverMessage(error), variant: "destructive" }),
  });
  const portal = useMutation({
    mutationFn: () => apiRequest<{ portalUrl: string }>("GET", "/api/subscription/portal"),
    onSuccess: ({ portalUrl }) => window.location.assign(portalUrl),
    onError: (error) => toast({ title: "Error", description: serverMessage(error), variant: "destructive" }),
  });
  const cancel = useMutation({
    mutationFn: () => apiRequest<SubscriptionStatusData>("POST", "/api/subscription/cancel"),
    onSuccess: (next) => {
      setConfirmCancel(false);
      queryClient.setQueryData(SUBSCRIPTION_STATUS_KEY, next);
      toast({ title: "Subscription canceled", description: `Premium stays active until ${formatDate(next.subscription?.currentPeriodEnd ?? null)}.` });
    },
    onError: (error) => {
      setConfirmCancel(false);
      toast({ title: "Error", description: serverMessage(error), variant: "destructive" });
    },
  });

  const billable = state !== "off" && state !== "admin";

  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold">Subscription Management</h1>
      <p className="mt-1 text-slate-400">Your plan, its period, and billing.</p>

      {checkout === "success" && billable && state !== "premium" && state !== "canceling" ? (
        <p role="status" className="mt-6 flex items-center gap-2 rounded-lg border border-brand/40 bg-brand/10 p-3 text-sm text-violet-100">
          <Info className="h-4 w-4 shrink-0" aria-hidden />
          Checkout finished. Premium starts as soon as Stripe confirms the payment (usually within seconds); this page updates by itself.
        </p>
      ) : null}
      {checkout === "cancelled" && state === "free" ? (
        <p role="status" className="mt-6 flex items-center gap-2 rounded-lg border border-slate-700 bg-slate-900 p-3 text-sm text-slate-300">
          <Info className="h-4 w-4 shrink-0" aria-hidden />
          Checkout was cancelled; nothing was charged.
        </p>
      ) : null}

      <Card className="mt-6" data-testid="plan-card">
        <CardHeader>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <CardTitle className="flex items-center gap-2">
              {state === "admin" ? <ShieldCheck className="h-5 w-5 text-brand" aria-hidden /> : <Crown className="h-5 w-5 text-brand" aria-hidden />}
              {text.title}
            </CardTitle>
            <span
              data-testid="plan-status"
              className={cn(
                "rounded-full border px-3 py-1 text-xs font-medium",
                state === "premium" || state === "admin" || state === "off" ? "border-brand/60 bg-brand/15 text-violet-100" : "",
                state === "canceling" ? "border-amber-500/60 bg-amber-500/10 text-amber-200" : "",
                state === "free" || state === "lapsed" ? "border-slate-600 text-slate-300" : "",
              )}
            >
              {text.badge}
            </span>
          </div>
          <CardDescription>
            {state === "off"
              ? "Billing is not configured on this server (self-hosted mode): every signed-in user has the premium features, and no payment is ever asked for."
              : state === "admin"
                ? "The owner account has every feature without a subscription."
                : state === "free"
                  ? `Premium costs ${SUBSCRIPTION_PRICE_LABEL}. Cancel whenever you like; it runs to the end of the paid period.`
                  : state === "premium"
                    ? `Premium renews on ${formatDate(sub?.currentPeriodEnd ?? null)}.`
                    : state === "canceling"
                      ? `Premium stays active until ${formatDate(sub?.currentPeriodEnd ?? null)} and will not renew.`
                      : "The last payment did not go through, so Premium is paused. Update your payment method in the billing portal."}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          {sub && (state === "premium" || state === "canceling" || state === "lapsed") ? (
            <dl className="grid gap-3 text-sm sm:grid-cols-3" data-testid="plan-period">
              <div>
                <dt className="text-slate-400">Status</dt>
                <dd className="font-medium">{sub.status}</dd>
              </div>
              <div>
                <dt className="text-slate-400">Current period</dt>
                <dd className="font-medium">
                  {formatDate(sub.currentPeriodStart)} – {formatDate(sub.currentPeriodEnd)}
                </dd>
              </div>
              <div>
                <dt className="text-slate-400">{sub.cancelAtPeriodEnd ? "Ends on" : "Renews on"}</dt>
                <dd className="font-medium">{formatDate(sub.currentPeriodEnd)}</dd>
              </div>
            </dl>
          ) : null}

          {state === "free" ? (
            <div className="grid gap-6 sm:grid-cols-2">
              <div className="rounded-lg border border-slate-800 p-4">
                <h3 className="mb-3 font-semibold">Free</h3>
                <FeatureList items={PLAN_FEATURES.free} muted />
              </div>
              <div className="rounded-lg border border-brand/60 bg-brand/5 p-4">
                <h3 className="mb-3 font-semibold">Premium · {SUBSCRIPTION_PRICE_LABEL}</h3>
                <FeatureList items={PLAN_FEATURES.premium} />
              </div>
            </div>
          ) : (
            <FeatureList items={PLAN_FEATURES.premium} />
          )}

          {billable ? (
            <div className="flex flex-wrap gap-3">
              {state === "free" ? (
                <Button onClick={() => subscribe.mutate()} disabled={subscribe.isPending}>
                  <Crown className="h-4 w-4" aria-hidden /> {subscribe.isPending ? "Redirecting..." : `Subscribe for ${SUBSCRIPTION_PRICE_LABEL}`}
                </Button>
              ) : null}
              {state === "premium" ? (
                <Button variant="outline" onClick={() => setConfirmCancel(true)} disabled={cancel.isPending}>
                  Cancel Subscription
                </Button>
              ) : null}
              {state !== "free" || sub ? (
                <Button variant={state === "free" ? "outline" : "default"} onClick={() => portal.mutate()} disabled={portal.isPending}>
                  <CreditCard className="h-4 w-4" aria-hidden /> {portal.isPending ? "Opening..." : "Billing Portal"}
                  <ExternalLink className="h-3.5 w-3.5" aria-hidden />
                </Button>
              ) : null}
            </div>
          ) : null}
        </CardContent>
      </Card>

      <Dialog open={confirmCancel} onOpenChange={(open) => !cancel.isPending && setConfirmCancel(open)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Cancel Premium?</DialogTitle>
            <DialogDescription>
              Your subscription ends on {formatDate(sub?.currentPeriodEnd ?? null)} and will not renew. Until then you keep every Premium feature.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirmCancel(false)} disabled={cancel.isPending}>
              Keep Premium
            </Button>
            <Button variant="destructive" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
              {cancel.isPending ? "Canceling..." : "Cancel at period end"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </main>
  );
}
