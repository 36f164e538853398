/** What the settings pages show to a visitor who is not signed in. */
export function SignedOutNotice() {
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-xl items-center justify-center p-8 text-center">
      <p className="text-lg text-slate-300">Please sign in to access your dashboard.</p>
    </main>
  );
}
