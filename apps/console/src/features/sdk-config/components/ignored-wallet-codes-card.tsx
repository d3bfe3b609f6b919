import {
  MAX_IGNORED_WALLET_CODES,
  OFFERED_WALLET_CODES,
  type Project,
  WALLET_CODE_MAX,
  WALLET_CODE_MIN,
} from '@polyflow/contracts/projects';
import { type FormEvent, useRef, useState } from 'react';
import { DOCS } from '../../../components/docs-links';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { focusSoon } from '../../../lib/announce';
import { useSetIgnoredWalletCodes } from '../api/set-ignored-wallet-codes';

interface IgnoredWalletCodesCardProps {
  project: Project;
  onError: (error: Error) => void;
}

const OFFERED = new Set(OFFERED_WALLET_CODES.map(({ code }) => code));

/** Parses "4001, -32002" into codes; null when a part is not a 32-bit whole number. */
function parseCodes(text: string): number[] | null {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  const codes = parts.map(Number);
  const isValid = codes.every((code, index) => {
    return /^-?\d+$/.test(parts[index] ?? '') && code >= WALLET_CODE_MIN && code <= WALLET_CODE_MAX;
  });
  return isValid ? codes : null;
}

/**
 * Wallet noise: wallet errors with these RPC codes are stored (they stay on the wallet's page and in the
 * transaction figures) but are not incidents, from the next event on.
 */
export function IgnoredWalletCodesCard({ project, onError }: IgnoredWalletCodesCardProps) {
  const saved = project.ignoredWalletCodes;
  const [checked, setChecked] = useState(() => new Set(saved.filter((code) => OFFERED.has(code))));
  const [other, setOther] = useState(() => saved.filter((code) => !OFFERED.has(code)).join(', '));
  const save = useSetIgnoredWalletCodes();
  const others = parseCodes(other);
  const codes = others === null ? null : [...new Set([...checked, ...others])].sort((a, b) => a - b);
  const error =
    others === null
      ? 'Enter whole numbers (e.g. 4001, -32002), separated by commas or spaces.'
      : codes && codes.length > MAX_IGNORED_WALLET_CODES
        ? `At most ${MAX_IGNORED_WALLET_CODES} codes.`
        : undefined;
  const isChanged = codes !== null && codes.join(',') !== [...saved].sort((a, b) => a - b).join(',');

  const toggle = (code: number) =>
    setChecked((current) => {
      const next = new Set(current);
      if (next.has(code)) next.delete(code);
      else next.add(code);
      return next;
    });

  const savedLine = useRef<HTMLParagraphElement>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!codes || error) return;
    save.mutate(
      { projectId: project.id, codes },
      {
        onSuccess: (answer) => {
          setChecked(new Set(answer.ignoredWalletCodes.filter((code) => OFFERED.has(code))));
          setOther(answer.ignoredWalletCodes.filter((code) => !OFFERED.has(code)).join(', '));
          // Save is disabled once nothing is changed: focus the line that says what is ignored now.
          focusSoon(() => savedLine.current);
        },
        onError,
      },
    );
  };

  return (
    <Card aria-labelledby="wallet-codes-title">
      <CardHeader
        titleId="wallet-codes-title"
        eyebrow="Incidents"
        title="Ignored wallet errors"
        description="Wallet errors with these codes are not incidents. They are still stored: the wallet's page and the transaction figures keep counting them. A change applies to errors received from now on; existing incidents stay."
      />
      <p ref={savedLine} role="status" className="mb-3 text-sm font-medium text-slate-800">
        {saved.length === 0
          ? 'Every wallet error is an incident, refusals included.'
          : `Ignored: ${[...saved].sort((a, b) => a - b).join(', ')}.`}
      </p>
      <form onSubmit={onSubmit} className="flex flex-col gap-3">
        <fieldset className="grid gap-2 sm:grid-cols-2">
          <legend className="sr-only">Codes</legend>
          {OFFERED_WALLET_CODES.map(({ code, label }) => (
            <label key={code} className="flex min-w-0 items-start gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                checked={checked.has(code)}
                onChange={() => toggle(code)}
                className="mt-0.5 size-4 shrink-0 accent-indigo-700"
              />
              <span className="min-w-0">
                <span className="font-mono font-semibold tabular-nums">{code}</span> {label}
              </span>
            </label>
          ))}
        </fieldset>
        <Input
          label="Other codes"
          placeholder="e.g. -32603"
          value={other}
          error={error}
          hint="Whole numbers, separated by commas or spaces."
          onChange={(event) => setOther(event.target.value)}
        />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <a href={DOCS.incidents} className="text-xs font-semibold text-indigo-700 underline">
            What is an incident
          </a>
          <Button type="submit" disabled={!isChanged || error !== undefined} isLoading={save.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Card>
  );
}
