/**
 * The work page `/work/:id`: header with the buttons, related works and the file tree with
 * its image preview. Playback is handed to the player store; the page never plays anything itself.
 */
import { useCallback, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Center, Group, Loader, Stack, Title } from '@mantine/core';
import { TreeSkeleton } from '../../components/ListSkeleton.js';
import type { FileNode, TrackNode } from '../../../../server/contract/tracks.js';
import { parseProductCode } from '../../../../server/domain/work-code.js';
import { ApiError } from '../../api/client.js';
import { reportError } from '../../api/errors.js';
import { streamUrl, withToken, workZipUrl } from '../../api/urls.js';
import { LoadFailed } from '../../components/LoadFailed.js';
import { NotFoundPage } from '../../components/NotFoundPage.js';
import { t } from '../../i18n/index.js';
import { notifySuccess } from '../../lib/notify.js';
import { useAbilities, useSession } from '../auth/use-session.js';
import { useCurrentEntry, usePlayer } from '../player/store.js';
import { fetchTracks, fetchWork, requestTranslation, tracksKey, workKey } from './api.js';
import { EditMetaDialog } from './EditMetaDialog.js';
import { FileTree, type TreeActions } from './FileTree.js';
import { ImagePreview } from './ImagePreview.js';
import { RelatedWorks } from './RelatedWorks.js';
import { ReviewDialog } from './ReviewDialog.js';
import { audioBelow, audioFiles, folderAt, imageFiles, initialPath, isFolder, nodeStatus, toEntries } from './tree.js';
import { useScrollToTop } from '../works/use-scroll-memory.js';
import { useAiTasks, useRefreshAiTasks } from './use-ai-tasks.js';
import { WorkActions } from './WorkActions.js';
import { WorkHeader } from './WorkHeader.js';
import { WholeWorkButtons } from './WholeWorkButtons.js';

/** `/work/123456`, and codes such as `/work/RJ123456` typed by hand. */
function parseWorkId(raw: string | undefined): number | null {
  if (!raw) return null;
  if (/^\d{1,15}$/.test(raw)) return Number(raw) || null;
  return parseProductCode(raw);
}

export function WorkDetailPage() {
  const params = useParams();
  const id = parseWorkId(params.id);
  if (id === null) return <NotFoundPage />;
  return <WorkDetail key={id} id={id} />;
}

function WorkDetail({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const session = useSession();
  const { admin, canWrite } = useAbilities();
  const work = useQuery({ queryKey: workKey(id), queryFn: ({ signal }) => fetchWork(id, signal) });
  const tracks = useQuery({ queryKey: tracksKey(id), queryFn: ({ signal }) => fetchTracks(id, signal) });
  const aiTasks = useAiTasks(id);
  const refreshAi = useRefreshAiTasks(id);
  const current = useCurrentEntry();
  const { playTracks, addToQueue, playNext } = usePlayer.getState();

  const [path, setPath] = useState<string[] | null>(null);
  const [preview, setPreview] = useState<number | null>(null);
  const [editing, setEditing] = useState(false);
  const [reviewing, setReviewing] = useState(false);

  useScrollToTop();

  const tree = tracks.data;
  const shownPath = useMemo(() => (tree ? (path ?? initialPath(tree)) : []), [tree, path]);
  const nodes = useMemo(() => (tree ? (folderAt(tree, shownPath) ?? tree) : []), [tree, shownPath]);
  const folder = useMemo(() => (tree && folderAt(tree, shownPath) ? shownPath : []), [tree, shownPath]);
  const images = useMemo(() => imageFiles(nodes), [nodes]);
  const tasks = useMemo(() => aiTasks.data ?? [], [aiTasks.data]);

  const statusOf = useCallback((node: TrackNode) => nodeStatus(node, folder, tasks), [folder, tasks]);

  const entriesOf = useCallback(
    (node: TrackNode) => {
      if (isFolder(node)) return audioBelow(node.children, [...folder, node.title]).flatMap(({ node: n, folder: f }) => toEntries([n], f));
      return node.type === 'audio' ? toEntries([node], folder) : [];
    },
    [folder],
  );

  const translateOne = useCallback(
    async (file: FileNode) => {
      await requestTranslation(file.hash);
      notifySuccess(t.library.detail.translateOne);
      refreshAi();
    },
    [refreshAi],
  );

  const actions = useMemo<TreeActions>(
    () => ({
      open: (node) => {
        if (isFolder(node)) return setPath([...folder, node.title]);
        if (node.type === 'audio') {
          const list = audioFiles(nodes);
          playTracks(toEntries(list, folder), list.indexOf(node));
          return;
        }
        if (node.type === 'image') return setPreview(images.indexOf(node));
        window.open(withToken(node.mediaStreamUrl || streamUrl(node.hash)), '_blank', 'noopener');
      },
      addToQueue: (node) => {
        const entries = entriesOf(node);
        if (!entries.length) return;
        addToQueue(entries);
        notifySuccess(t.library.tree.addedToQueue);
      },
      playNext: (node) => {
        const entries = entriesOf(node);
        if (!entries.length) return;
        playNext(entries);
        notifySuccess(t.library.tree.willPlayNext);
      },
      translate: (file) => {
        translateOne(file).catch(reportError);
      },
      folderZipUrl: (node) => workZipUrl(id, [...folder, node.title]),
    }),
    [id, folder, nodes, images, entriesOf, playTracks, addToQueue, playNext, translateOne],
  );

  const translateFolder = useCallback(async () => {
    let done = 0;
    let failed = 0;
    for (const file of audioFiles(nodes)) {
      try {
        await requestTranslation(file.hash);
        done++;
      } catch (err) {
        // a refused user (guest, lost session) is refused for every file: stop and say so once
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) throw err;
        failed++;
      }
    }
    refreshAi();
    return { done, failed };
  }, [nodes, refreshAi]);

  const refetchWork = useCallback(() => void queryClient.invalidateQueries({ queryKey: workKey(id) }), [queryClient, id]);

  if (work.isPending) {
    return (
      <Center py={80}>
        <Loader type="dots" />
      </Center>
    );
  }
  if (work.isError) {
    if (work.error instanceof ApiError && (work.error.status === 404 || work.error.status === 400)) return <NotFoundPage />;
    return <LoadFailed error={work.error} onRetry={() => void work.refetch()} />;
  }

  const data = work.data;
  return (
    <Stack gap="lg" data-testid="work-page" data-work-id={id}>
      <WorkHeader
        work={data}
        actions={
          <WorkActions
            work={data}
            userName={session.data?.user.name ?? ''}
            admin={admin}
            canWrite={canWrite}
            folderAudioCount={audioFiles(nodes).length}
            onTranslateFolder={translateFolder}
            onEdit={() => setEditing(true)}
            onReview={() => setReviewing(true)}
            onChanged={refetchWork}
            onReload={() => window.location.reload()}
          />
        }
      />
      <RelatedWorks workId={id} related={data.relatedWorks ?? []} />
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" fw={600}>
            {t.library.tree.title}
          </Title>
          <WholeWorkButtons workId={id} tree={tree} />
        </Group>
        {tracks.isPending ? (
          <TreeSkeleton />
        ) : tracks.isError ? (
          <LoadFailed error={tracks.error} onRetry={() => void tracks.refetch()} py="xl" />
        ) : (
          <FileTree path={shownPath} nodes={nodes} statusOf={statusOf} playingHash={current?.hash} canTranslate={canWrite} actions={actions} onPath={setPath} />
        )}
      </Stack>
      <ImagePreview workId={id} images={images} index={preview} onIndex={setPreview} />
      {canWrite && (
        <ReviewDialog
          work={data}
          opened={reviewing}
          onClose={(modified) => {
            setReviewing(false);
            if (modified) refetchWork();
          }}
        />
      )}
      {admin && <EditMetaDialog work={data} opened={editing} onClose={() => setEditing(false)} onSaved={() => window.location.reload()} />}
    </Stack>
  );
}
