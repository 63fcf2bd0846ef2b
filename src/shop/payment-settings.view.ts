import { ApiProperty } from '@nestjs/swagger';

/** A project's settings of one payment provider, as the admin API answers them: secrets masked, never echoed. */
export class PaymentSettingsView {
  @ApiProperty({ example: 'epay' }) provider!: string;
  @ApiProperty({ description: 'new checkouts may pay with it' }) enabled!: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { gateway_url: 'https://pay.example.com/', pid: '1001' },
    description: "the provider's fields that are not secret, as set",
  })
  settings!: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', nullable: true },
    example: { key: '****' },
    description: 'each secret field: `****` (with its last four characters when it has 16 or more) when set, null when not',
  })
  secrets!: Record<string, string | null>;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://keys.example.com/shop/notify/epay/0b6c…',
    description: "where the gateway notifies this project's payments (under PUBLIC_URL); null while PUBLIC_URL is unset",
  })
  notify_url!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}
