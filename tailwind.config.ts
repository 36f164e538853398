import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        brand: { DEFAULT: "#7c3aed", dark: "#5b21b6", light: "#ede9fe" },
      },
      keyframes: {
        "toast-in": { from: { transform: "translateX(calc(100% + 1rem))" }, to: { transform: "translateX(0)" } },
        "toast-out": { from: { opacity: "1" }, to: { opacity: "0" } },
      },
      animation: {
        "toast-in": "toast-in 150ms cubic-bezier(0.16, 1, 0.3, 1)",
        "toast-out": "toast-out 100ms ease-in",
      },
    },
  },
  plugins: [],
} satisfies Config;
