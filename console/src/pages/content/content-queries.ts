import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { AnnouncementStore } from '../../components/AnnouncementsEditor';
import { uploadWithProgress } from '../../components/upload';

export type StoredFile = Schemas['FileView'];
export type Version = Schemas['VersionView'];
export type NewVersion = Schemas['CreateVersionDto'];

export const contentKeys = {
  files: (projectId: string) => ['files', projectId],
  versions: (projectId: string) => ['versions', projectId],
};

/** The project's announcements, for its clients. */
export function projectAnnouncements(projectId: string): AnnouncementStore {
  const one = (annId: number) => ({ params: { path: { id: projectId, annId } } });
  return {
    queryKey: ['announcements', projectId],
    list: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/announcements', {
          params: { path: { id: projectId }, query: { page: 1, page_size: 100 } },
        }),
      ),
    create: (body) => unwrap(api.POST('/admin/v1/projects/{id}/announcements', { params: { path: { id: projectId } }, body })),
    update: (annId, body) => unwrap(api.PATCH('/admin/v1/projects/{id}/announcements/{annId}', { ...one(annId), body })),
    remove: (annId) => unwrap(api.DELETE('/admin/v1/projects/{id}/announcements/{annId}', one(annId))),
  };
}

export function filesQuery(projectId: string) {
  return queryOptions({
    queryKey: contentKeys.files(projectId),
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/files', { params: { path: { id: projectId }, query: { page: 1, page_size: 100 } } }),
      ),
  });
}

/** A multipart upload (outside the typed client: fetch reports no progress). */
export function uploadFile(projectId: string, file: File, onProgress: (percent: number) => void) {
  return uploadWithProgress<StoredFile>(`/admin/v1/projects/${projectId}/files`, file, onProgress);
}

export function deleteFile(projectId: string, fileId: string) {
  return unwrap(api.DELETE('/admin/v1/projects/{id}/files/{fileId}', { params: { path: { id: projectId, fileId } } }));
}

export function versionsQuery(projectId: string) {
  return queryOptions({
    queryKey: contentKeys.versions(projectId),
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/versions', { params: { path: { id: projectId }, query: { page: 1, page_size: 100 } } }),
      ),
  });
}

export function createVersion(projectId: string, version: NewVersion) {
  return unwrap(api.POST('/admin/v1/projects/{id}/versions', { params: { path: { id: projectId } }, body: version }));
}

/** Shows or hides a version to clients. */
export function setVersionEnabled(projectId: string, versionId: number, enabled: boolean) {
  return unwrap(
    api.PATCH('/admin/v1/projects/{id}/versions/{versionId}', {
      params: { path: { id: projectId, versionId } },
      body: { enabled },
    }),
  );
}

export function deleteVersion(projectId: string, versionId: number) {
  return unwrap(api.DELETE('/admin/v1/projects/{id}/versions/{versionId}', { params: { path: { id: projectId, versionId } } }));
}
