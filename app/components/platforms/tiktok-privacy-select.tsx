// Who can see a TikTok post, as TikTok's content-sharing guidelines ask: the creator's own options from
// creator_info, no default chosen, and only "Only me" while TikTok has not audited the server's app (decision 216).
// Used for one post (platform-publish.tsx) and for a channel's posts (channel-accounts.tsx).
import { TIKTOK_PRIVACY_LABELS, type TikTokPrivacyLevel } from "~/lib/platform-rules";
import type { CreatorInfo } from "./platform-queries";

/** The interaction switches TikTok asks to show, each off where the creator turned it off in TikTok's own settings. */
export function tiktokInteractionSwitches(creator: CreatorInfo) {
  return [
    { key: "allowComment" as const, label: "Allow comments", off: creator.commentDisabled },
    { key: "allowDuet" as const, label: "Allow duets", off: creator.duetDisabled },
    { key: "allowStitch" as const, label: "Allow stitches", off: creator.stitchDisabled },
  ];
}

export function TikTokPrivacySelect(props: {
  id: string;
  className: string;
  value: TikTokPrivacyLevel | "";
  options: TikTokPrivacyLevel[];
  audited: boolean;
  placeholder: string;
  onChange: (level: TikTokPrivacyLevel) => void;
}) {
  return (
    <select id={props.id} className={props.className} value={props.value} onChange={(e) => props.onChange(e.target.value as TikTokPrivacyLevel)}>
      <option value="" disabled>
        {props.placeholder}
      </option>
      {props.options.map((level) => (
        <option key={level} value={level} disabled={!props.audited && level !== "SELF_ONLY"}>
          {TIKTOK_PRIVACY_LABELS[level]}
        </option>
      ))}
    </select>
  );
}
