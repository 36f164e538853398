import { LogOut } from "lucide-react";
import { Button, type ButtonProps } from "~/components/ui/button";

/**
 * Sign Out: a form that POSTs to /api/logout (a navigation there, as the spec says). Signing out by GET would
 * let any page or image tag on another site sign the user out.
 */
export function SignOutButton({ icon = false, ...props }: { icon?: boolean } & Pick<ButtonProps, "variant" | "size" | "className">) {
  return (
    <form method="post" action="/api/logout" className="contents">
      <Button type="submit" {...props}>
        {icon ? <LogOut className="h-4 w-4" aria-hidden /> : null} Sign Out
      </Button>
    </form>
  );
}
