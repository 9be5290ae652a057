/** Notification rules (experimental): every operation, with every field the client sends. */
import { notificationRulesRoutes } from "../../../provider/emulator/notification-rules";
import type { AccessArea } from "./area";

export const notificationRulesArea: AccessArea = {
  name: "notification rules",
  operations: {
    "notificationRules.list": "NotificationRulesService_ListNotificationRules",
    "notificationRules.create": "NotificationRulesService_CreateNotificationRule",
    "notificationRules.replace": "NotificationRulesService_ReplaceNotificationRule",
    "notificationRules.delete": "NotificationRulesService_DeleteNotificationRule",
    "notificationRules.test": "NotificationRulesService_TestNotificationRule",
  },
  routes: notificationRulesRoutes,
  async drive(client, deploymentId) {
    const rule = await client.notificationRules.create(deploymentId, {
      name: "Every field",
      channel: "CHANNEL_WEBHOOK",
      config: { url: "https://hooks.example/every-field" },
      policySlugs: ["comment-high-severity"],
      enabled: true,
      sendScanCompletion: false,
      useNetworkBroker: true,
    });
    await client.notificationRules.replace(deploymentId, rule.id, {
      name: "Every field",
      channel: "CHANNEL_EMAIL",
      config: { to: "a@b.example" },
    });
    await client.notificationRules.test(deploymentId, rule.id);
    await client.notificationRules.list(deploymentId);
    await client.notificationRules.delete(deploymentId, rule.id);
  },
};
