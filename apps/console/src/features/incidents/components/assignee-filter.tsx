import { ASSIGNEE_ME, ASSIGNEE_NONE } from '@polyflow/contracts/incidents';
import type { Member } from '@polyflow/contracts/members';
import { useId } from 'react';

interface AssigneeFilterProps {
  /** `me`, `none`, a member's user id, or null: anyone. */
  value: string | null;
  members: readonly Member[];
  onChange: (assignee: string | null) => void;
}

/** Anyone / Assigned to me / Unassigned / one member: filters the table like the severity does. */
export function AssigneeFilter({ value, members, onChange }: AssigneeFilterProps) {
  const id = useId();
  // A filter for someone who has left: keep it selectable so the URL and the select agree.
  const isKnown =
    value === null ||
    value === ASSIGNEE_ME ||
    value === ASSIGNEE_NONE ||
    members.some((m) => m.userId === value);
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-xs font-semibold uppercase tracking-wide text-slate-600">
        Assignee
      </label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
        className="h-10 max-w-56 min-w-0 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:outline-2 focus:outline-indigo-500"
      >
        <option value="">Anyone</option>
        <option value={ASSIGNEE_ME}>Assigned to me</option>
        <option value={ASSIGNEE_NONE}>Unassigned</option>
        {members.map((member) => (
          <option key={member.userId} value={member.userId}>
            {member.email}
          </option>
        ))}
        {!isKnown && value && <option value={value}>Former member</option>}
      </select>
    </div>
  );
}
