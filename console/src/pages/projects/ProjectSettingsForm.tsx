import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../api/client';
import { useSession } from '../../app/use-session';
import { DurationInput } from '../../components/DurationInput';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { cardTypesQuery } from '../card-types/card-type-queries';
import { projectKeys, updateProject } from './project-queries';
import { SETTING_GROUPS, changedSettings, isIpAddress, type SettingField, type SettingValues } from './project-settings';

function optionLabel(t: TFunction, name: string, option: string): string {
  if (name === 'status') return t(`projects.statuses.${option}`);
  if (name === 'transport_encryption') return option === 'none' ? t('settings.options.none') : option;
  return t(`settings.options.${option}`);
}

/** The control that Form.Item hands its child: id (for the label), value and onChange (or checked). */
type FormControl = Record<string, unknown>;

/** The input of one setting; `control` carries the form's binding through to the real input. */
function SettingInput({
  field,
  disabled,
  projectId,
  ...control
}: { field: SettingField; disabled: boolean; projectId: string } & FormControl) {
  const { t } = useTranslation();
  const { kind, name } = field;
  switch (kind.type) {
    case 'text':
      return <Input {...control} maxLength={kind.max} disabled={disabled} />;
    case 'int':
    case 'int-or-unlimited':
      return (
        <InputNumber
          {...control}
          precision={0}
          disabled={disabled}
          placeholder={kind.type === 'int-or-unlimited' ? t('common.unlimited') : undefined}
          style={{ width: '100%' }}
        />
      );
    case 'duration':
      return (
        <DurationInput
          {...control}
          label={t(`settings.fields.${name}.label`)}
          disabled={disabled}
          units={kind.units}
          presets={kind.presets}
          zeroIsOff={kind.zeroIsOff}
        />
      );
    case 'switch':
      return <Switch {...control} disabled={disabled} />;
    case 'choice':
      return (
        <Select
          {...control}
          disabled={disabled}
          options={kind.options.map((option) => ({ value: option, label: optionLabel(t, name, option) }))}
        />
      );
    case 'ips':
      return <Select {...control} mode="tags" disabled={disabled} tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />;
    case 'card-type':
      return <CardTypeSelect {...control} projectId={projectId} disabled={disabled} />;
  }
}

/** The trial type (decisions §21): one of the project's enabled types (the chosen one even if disabled since); cleared = trials off. */
function CardTypeSelect({ projectId, disabled, value, ...control }: { projectId: string; disabled: boolean } & FormControl) {
  const { t } = useTranslation();
  const types = useQuery(cardTypesQuery(projectId));
  const options = (types.data?.items ?? [])
    .filter((type) => type.enabled || type.id === value)
    .map((type) => ({ value: type.id, label: type.enabled ? type.name : `${type.name} (${t('settings.trialTypeDisabled')})` }));
  return (
    <Select
      {...control}
      value={value ?? undefined}
      allowClear
      loading={types.isPending}
      disabled={disabled}
      placeholder={t('settings.trialOff')}
      options={options}
      notFoundContent={t('settings.noCardTypes')}
    />
  );
}

function rulesOf(field: SettingField, t: TFunction, span: (seconds: number) => string): Rule[] {
  const { kind } = field;
  if (kind.type === 'duration') {
    const between = t('time.between', {
      min: kind.min === 0 && kind.zeroIsOff ? t('time.off') : span(kind.min),
      max: span(kind.max),
    });
    return [
      { required: true, message: between },
      { type: 'integer', min: kind.min, max: kind.max, message: between },
    ];
  }
  if (kind.type === 'text') return [{ required: true, whitespace: true }, { max: kind.max }];
  if (kind.type === 'int') return [{ required: true }, { type: 'integer', min: kind.min, max: kind.max }];
  if (kind.type === 'int-or-unlimited') return [{ type: 'integer', min: kind.min, max: kind.max }];
  if (kind.type === 'ips') {
    const validator = async (_: unknown, values: string[] | undefined) => {
      const wrong = (values ?? []).find((value) => !isIpAddress(value));
      if (wrong !== undefined) throw new Error(t('settings.invalidIp', { value: wrong }));
    };
    return [{ validator }];
  }
  return [];
}

/** Every setting of a project, each with what it does; a save sends only what changed. */
export function ProjectSettingsForm({ project }: { project: Project }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const { span } = useFormat();
  const [form] = Form.useForm<SettingValues>();
  const queries = useQueryClient();
  const save = useMutation({
    mutationFn: (changes: SettingValues) => updateProject(project.id, changes),
    onSuccess: (saved) => {
      queries.setQueryData(projectKeys.one(project.id), saved);
      void queries.invalidateQueries({ queryKey: projectKeys.all });
      form.resetFields();
      void message.success(t('common.saved'));
    },
  });

  const submit = (values: SettingValues) => {
    // An emptied "unlimited" number comes back as null or undefined: both mean unlimited.
    for (const field of SETTING_GROUPS.flatMap((group) => group.fields)) {
      const emptyIsNull = field.kind.type === 'int-or-unlimited' || field.kind.type === 'card-type';
      if (emptyIsNull && values[field.name] === undefined) (values as Record<string, unknown>)[field.name] = null;
    }
    const changes = changedSettings(project, values);
    if (Object.keys(changes).length === 0) void message.info(t('settings.noChanges'));
    else save.mutate(changes);
  };

  return (
    <Form
      form={form}
      name="project-settings"
      layout="vertical"
      initialValues={project}
      onFinish={submit}
      disabled={save.isPending}
      data-testid="settings-form"
    >
      {SETTING_GROUPS.map((group) => (
        <Card key={group.key} title={t(`settings.groups.${group.key}`)} size="small" className="block-gap">
          <Row gutter={24}>
            {group.fields.map((field) => (
              <Col key={field.name} xs={24} md={12}>
                <Form.Item
                  name={field.name}
                  label={t(`settings.fields.${field.name}.label`)}
                  extra={t(`settings.fields.${field.name}.help`)}
                  valuePropName={field.kind.type === 'switch' ? 'checked' : 'value'}
                  rules={rulesOf(field, t, span)}
                >
                  <SettingInput
                    field={field}
                    projectId={project.id}
                    disabled={
                      (field.platformAdminOnly === true && session?.role !== 'platform_admin') ||
                      (field.name === 'connect_enabled' && !project.connect_opening.switchable)
                    }
                  />
                </Form.Item>
              </Col>
            ))}
          </Row>
        </Card>
      ))}
      {save.error && (
        <div className="block-gap">
          <ErrorAlert error={save.error} />
        </div>
      )}
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        {t('settings.saveChanges')}
      </Button>
    </Form>
  );
}
