import type { Project } from '@polyflow/contracts/projects';
import { type FormEvent, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { useDeleteProject } from '../api/delete-project';

/** Danger zone: typing the project's name unlocks the irreversible delete. */
export function DeleteProjectCard({ project, onDeleted }: { project: Project; onDeleted: () => void }) {
  const [confirmation, setConfirmation] = useState('');
  const deleteProject = useDeleteProject();
  const isConfirmed = confirmation === project.name;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!isConfirmed) return;
    deleteProject.mutate(project.id, { onSuccess: onDeleted });
  };

  return (
    <Card className="border border-red-200">
      <CardHeader
        eyebrow="Danger zone"
        title="Delete this project"
        description={
          <p>
            Deleting <strong>{project.name}</strong> turns off Polyflow on all instances using this project's
            API key and removes the project. This is irreversible.
          </p>
        }
      />
      <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Input
          label={`Type ${project.name} to confirm`}
          hint={`Type the project name exactly: ${project.name}`}
          autoComplete="off"
          spellCheck={false}
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
          className="sm:flex-1"
        />
        <Button
          type="submit"
          variant="danger"
          disabled={!isConfirmed}
          isLoading={deleteProject.isPending}
          className="sm:mt-[1.375rem]"
        >
          Delete project
        </Button>
      </form>
      {deleteProject.error && (
        <Alert tone="error" className="mt-3">
          {deleteProject.error.message}
        </Alert>
      )}
    </Card>
  );
}
