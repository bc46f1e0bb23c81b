/** One work in the list, in the style the preferences ask for: new card, old card or list item. */
import type { WorkListItem } from '../../../../server/contract/works.js';
import { OldWorkCard } from '../../components/work-card/OldWorkCard.js';
import { WorkCard } from '../../components/work-card/WorkCard.js';
import { WorkListRow } from '../../components/work-card/WorkListRow.js';

export interface ItemLook {
  list: boolean;
  oldCard: boolean;
  labels: boolean;
  detail: boolean;
  /** The width a card's cover is shown at (`<img sizes>`). */
  coverSizes?: string;
}

export function WorkItem({ work, look, eager }: { work: WorkListItem; look: ItemLook; eager?: boolean }) {
  if (look.list) return <WorkListRow work={work} labels={look.labels} detail={look.detail} eager={eager} />;
  if (look.oldCard) return <OldWorkCard work={work} detail={look.detail} eager={eager} coverSizes={look.coverSizes} />;
  return <WorkCard work={work} detail={look.detail} eager={eager} coverSizes={look.coverSizes} />;
}
