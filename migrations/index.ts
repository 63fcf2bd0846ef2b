import { CreateFoundation1763800000000 } from './1763800000000-CreateFoundation';
import { CreateCardsAndConnect1763900000000 } from './1763900000000-CreateCardsAndConnect';
import { AddLoginTokenHash1764300000000 } from './1764300000000-AddLoginTokenHash';
import { CreateSessions1764000000000 } from './1764000000000-CreateSessions';
import { CreateVersionsAndFiles1764100000000 } from './1764100000000-CreateVersionsAndFiles';
import { CreateAppUsers1764200000000 } from './1764200000000-CreateAppUsers';
import { CreateSitesAndBlacklist1764400000000 } from './1764400000000-CreateSitesAndBlacklist';
import { CreateRemoteVariables1764500000000 } from './1764500000000-CreateRemoteVariables';
import { AllowAesGcmTransport1764600000000 } from './1764600000000-AllowAesGcmTransport';
import { CreateSigningKeys1764700000000 } from './1764700000000-CreateSigningKeys';
import { AddCardKindsAndSeats1764800000000 } from './1764800000000-AddCardKindsAndSeats';
import { AddPlatformAnnouncementSwitch1764900000000 } from './1764900000000-AddPlatformAnnouncementSwitch';
import { PartitionLoginLogsByMonth1765000000000 } from './1765000000000-PartitionLoginLogsByMonth';
import { IndexCardListOrders1765100000000 } from './1765100000000-IndexCardListOrders';
import { IndexCardCodeSearch1765200000000 } from './1765200000000-IndexCardCodeSearch';
import { CountBoundDevices1765300000000 } from './1765300000000-CountBoundDevices';
import { AddCardGuessLimit1765400000000 } from './1765400000000-AddCardGuessLimit';
import { StageCardImports1765500000000 } from './1765500000000-StageCardImports';
import { RecordSessionHeartbeats1765610000000 } from './1765610000000-RecordSessionHeartbeats';
import { RecordSessionEnds1765700000000 } from './1765700000000-RecordSessionEnds';
import { AddTwoFactorAndAuditTrail1766000000000 } from './1766000000000-AddTwoFactorAndAuditTrail';
import { CreateCardTypes1765800000000 } from './1765800000000-CreateCardTypes';
import { AddRebindingRulesAndIdleDevices1765900000000 } from './1765900000000-AddRebindingRulesAndIdleDevices';
import { CreateLoginBlacklist1766100000000 } from './1766100000000-CreateLoginBlacklist';
import { RecordRequests1766110000000 } from './1766110000000-RecordRequests';
import { CreateWebhooks1766200000000 } from './1766200000000-CreateWebhooks';
import { MarkCardExpiryNotices1766300000000 } from './1766300000000-MarkCardExpiryNotices';
import { CountCardLoginsOnly1766310000000 } from './1766310000000-CountCardLoginsOnly';
import { AddTrials1766400000000 } from './1766400000000-AddTrials';
import { CreateAgentsAndLedger1766410000000 } from './1766410000000-CreateAgentsAndLedger';
import { CreateOrders1766410000001 } from './1766410000001-CreateOrders';
import { CreateApiKeys1766420000000 } from './1766420000000-CreateApiKeys';
import { LogRowsWithoutForeignKeys1766430000000 } from './1766430000000-LogRowsWithoutForeignKeys';
import { SessionsWithoutProjectKey1766440000000 } from './1766440000000-SessionsWithoutProjectKey';
import { OrdersOutliveTheirProject1766450000000 } from './1766450000000-OrdersOutliveTheirProject';
import { CountDeviceChanges1766460000000 } from './1766460000000-CountDeviceChanges';
import { CreateBackups1766470000000 } from './1766470000000-CreateBackups';
import { CreateAgentPrices1766600000000 } from './1766600000000-CreateAgentPrices';
import { AddCardKeyShape1766610000000 } from './1766610000000-AddCardKeyShape';
import { AddStockCards1766700000000 } from './1766700000000-AddStockCards';
import { CreateCheckouts1766700000001 } from './1766700000001-CreateCheckouts';
import { CreateMailOutbox1766710000000 } from './1766710000000-CreateMailOutbox';

/** Every migration, in order. Listed explicitly so the same list works compiled and under Jest. */
export const MIGRATIONS = [
  CreateFoundation1763800000000,
  CreateCardsAndConnect1763900000000,
  CreateSessions1764000000000,
  CreateVersionsAndFiles1764100000000,
  CreateAppUsers1764200000000,
  AddLoginTokenHash1764300000000,
  CreateSitesAndBlacklist1764400000000,
  CreateRemoteVariables1764500000000,
  AllowAesGcmTransport1764600000000,
  CreateSigningKeys1764700000000,
  AddCardKindsAndSeats1764800000000,
  AddPlatformAnnouncementSwitch1764900000000,
  PartitionLoginLogsByMonth1765000000000,
  IndexCardListOrders1765100000000,
  IndexCardCodeSearch1765200000000,
  CountBoundDevices1765300000000,
  AddCardGuessLimit1765400000000,
  StageCardImports1765500000000,
  RecordSessionHeartbeats1765610000000,
  RecordSessionEnds1765700000000,
  CreateCardTypes1765800000000,
  AddRebindingRulesAndIdleDevices1765900000000,
  AddTwoFactorAndAuditTrail1766000000000,
  CreateLoginBlacklist1766100000000,
  RecordRequests1766110000000,
  CreateWebhooks1766200000000,
  MarkCardExpiryNotices1766300000000,
  CountCardLoginsOnly1766310000000,
  AddTrials1766400000000,
  CreateAgentsAndLedger1766410000000,
  CreateOrders1766410000001,
  CreateApiKeys1766420000000,
  LogRowsWithoutForeignKeys1766430000000,
  SessionsWithoutProjectKey1766440000000,
  OrdersOutliveTheirProject1766450000000,
  CountDeviceChanges1766460000000,
  CreateBackups1766470000000,
  CreateAgentPrices1766600000000,
  AddCardKeyShape1766610000000,
  AddStockCards1766700000000,
  CreateCheckouts1766700000001,
  CreateMailOutbox1766710000000,
];
