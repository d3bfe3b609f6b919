import { type GrantableRole, GrantableRoles } from '@polyflow/contracts/members';
import { useId } from 'react';
import { ROLE_LABELS } from '../../../lib/roles';

interface RoleSelectProps {
  label: string;
  value: GrantableRole;
  onChange: (role: GrantableRole) => void;
  hideLabel?: boolean;
  disabled?: boolean;
}

/** Admin or viewer: the roles an invitation or a change can give (ownership moves by a transfer). */
export function RoleSelect({ label, value, onChange, hideLabel = false, disabled }: RoleSelectProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label
        htmlFor={id}
        className={hideLabel ? 'sr-only' : 'text-xs font-semibold uppercase tracking-wide text-slate-600'}
      >
        {label}
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value as GrantableRole)}
        className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:outline-2 focus:outline-indigo-500 disabled:bg-slate-50 disabled:text-slate-500"
      >
        {GrantableRoles.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </select>
    </div>
  );
}
