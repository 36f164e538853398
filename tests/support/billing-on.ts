// Turns billing on for a test file (a free account is then really free). Import it before any app module.
process.env.STRIPE_SECRET_KEY = process.env.STRIPE_SECRET_KEY || "sk_test_reelsmith_free_account_checks";
export {};
