import { zodResolver } from '@hookform/resolvers/zod';
import type { Project } from '@polyflow/contracts/projects';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { useCreateProject } from '../api/create-project';

const NewProjectSchema = z.object({ name: z.string().trim().min(1, 'A name is required').max(100) });
type NewProjectForm = z.infer<typeof NewProjectSchema>;

export function CreateProjectForm({
  onCreated,
  onCancel,
}: {
  onCreated: (project: Project) => void;
  onCancel: () => void;
}) {
  const createProject = useCreateProject();
  const form = useForm<NewProjectForm>({
    resolver: zodResolver(NewProjectSchema),
    mode: 'onChange',
    defaultValues: { name: '' },
  });

  const onSubmit = ({ name }: NewProjectForm) =>
    createProject.mutate(name, {
      onSuccess: (project) => {
        form.reset();
        onCreated(project);
      },
    });

  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="flex flex-col gap-4">
      <Input
        label="Project name"
        placeholder="E.g. My dapp"
        autoComplete="off"
        error={form.formState.errors.name?.message}
        {...form.register('name')}
      />
      {createProject.error && <Alert tone="error">{createProject.error.message}</Alert>}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={!form.formState.isValid} isLoading={createProject.isPending}>
          Create
        </Button>
      </div>
    </form>
  );
}
