import { SecretBox } from '../core/crypto/secret-box';
import { Project } from './project.entity';
import { maskSecret, SECRET_COLUMNS, SECRET_NAMES, SecretName } from './project-secrets';

/** The admin API's project resource: settings by their snake_case names, secrets masked. */
export function toProjectView(project: Project, box: SecretBox, revealed?: Record<SecretName, string>) {
  const secrets = Object.fromEntries(
    SECRET_NAMES.map((name) => [name, revealed?.[name] ?? maskSecret(box.decrypt(project[SECRET_COLUMNS[name]]))]),
  ) as Record<SecretName, string>;
  return {
    id: project.id,
    program_id: project.programId,
    name: project.name,
    owner_id: project.ownerId,
    status: project.status,
    verification_enabled: project.verificationEnabled,
    basic_package: project.basicPackage,
    plan_level: project.planLevel,
    licence_verify: project.licenceVerify,
    device_limit: project.deviceLimit,
    unbind_enabled: project.unbindEnabled,
    unbind_deduct_seconds: project.unbindDeductSeconds,
    unbind_max: project.unbindMax,
    session_ttl_seconds: project.sessionTtlSeconds,
    heartbeat_interval_seconds: project.heartbeatIntervalSeconds,
    user_machine_policy: project.userMachinePolicy,
    transport_encryption: project.transportEncryption,
    ip_bindings: project.ipBindings,
    connect_enabled: project.connectEnabled,
    response_signing: project.responseSigning,
    offline_grace_seconds: project.offlineGraceSeconds,
    concurrent_limit: project.concurrentLimit,
    seat_policy: project.seatPolicy,
    portal_enabled: project.portalEnabled,
    ...secrets,
    created_at: project.createdAt.toISOString(),
    updated_at: project.updatedAt.toISOString(),
  };
}

export type ProjectView = ReturnType<typeof toProjectView>;
