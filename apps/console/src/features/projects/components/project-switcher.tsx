import type { Project } from '@polyflow/contracts/projects';
import { useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { FolderPlus } from '../../../components/ui/icons';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { focusSoon } from '../../../lib/announce';
import { formatDate } from '../../../lib/format';
import { ROLE_LABELS } from '../../../lib/roles';
import { useProjects } from '../api/get-projects';
import { CreateProjectForm } from './create-project-form';

interface ProjectSwitcherProps {
  isOpen: boolean;
  currentProjectId: string | null;
  onChoose: (project: Project) => void;
  /** Absent while there is no current project: the switcher cannot be dismissed then. */
  onClose?: (() => void) | undefined;
}

export function ProjectSwitcher({ isOpen, currentProjectId, onChoose, onClose }: ProjectSwitcherProps) {
  const [isCreating, setIsCreating] = useState(false);
  const projects = useProjects();

  const createButton = useRef<HTMLButtonElement>(null);
  const createForm = useRef<HTMLDivElement>(null);

  const choose = (project: Project) => {
    setIsCreating(false);
    onChoose(project);
  };
  // The button that was pressed goes away with the view it was in: focus goes to the other view rather than
  // to the page's body, where Tab would leave the dialog and Escape would not reach it (WCAG 2.4.3).
  const startCreating = () => {
    setIsCreating(true);
    focusSoon(() => createForm.current?.querySelector('input'));
  };
  const stopCreating = () => {
    setIsCreating(false);
    focusSoon(() => createButton.current);
  };

  return (
    <Modal isOpen={isOpen} title="My Projects" onClose={onClose}>
      {isCreating ? (
        <div ref={createForm}>
          <CreateProjectForm onCreated={choose} onCancel={stopCreating} />
        </div>
      ) : (
        <div className="flex flex-col gap-4">
          {projects.isPending && (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <Spinner /> Loading your projects…
            </p>
          )}
          {projects.error && <Alert tone="error">{projects.error.message}</Alert>}
          {projects.data?.length === 0 && (
            <p className="rounded-lg bg-indigo-50 p-4 text-sm text-indigo-900">
              You don't have any projects. Create a project by clicking the button below to get started.
            </p>
          )}
          {projects.data && projects.data.length > 0 && (
            <ul className="flex max-h-80 flex-col gap-2 overflow-y-auto">
              {projects.data.map((project) => {
                const isCurrent = project.id === currentProjectId;
                return (
                  <li
                    key={project.id}
                    className={cn(
                      'flex items-center justify-between gap-3 rounded-lg px-3 py-2 ring-1 ring-inset',
                      isCurrent ? 'bg-indigo-50 ring-indigo-300' : 'ring-slate-200',
                    )}
                  >
                    <div className="min-w-0">
                      <p className="flex items-center gap-2 text-sm font-semibold text-slate-900">
                        <span className="truncate">{project.name}</span>
                        <Badge className="shrink-0">{ROLE_LABELS[project.role]}</Badge>
                      </p>
                      <p className={cn('text-xs', isCurrent ? 'text-indigo-800' : 'text-slate-600')}>
                        {isCurrent ? 'Current project' : `Created ${formatDate(project.createdAt)}`}
                      </p>
                    </div>
                    <Button
                      size="sm"
                      variant={isCurrent ? 'secondary' : 'primary'}
                      aria-label={`Open ${project.name}`}
                      onClick={() => choose(project)}
                    >
                      Open
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
          <Button ref={createButton} variant="secondary" onClick={startCreating}>
            <FolderPlus aria-hidden="true" className="size-4" />
            Create a new project
          </Button>
        </div>
      )}
    </Modal>
  );
}
