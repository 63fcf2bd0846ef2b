import { ApiProperty } from '@nestjs/swagger';

/** Enrolment: shown once; the secret is kept encrypted and never answered again. */
export class TwoFactorEnrolmentView {
  @ApiProperty({ description: 'the TOTP secret, base32 (to type into an app that cannot scan)' }) secret!: string;
  @ApiProperty({ description: 'otpauth:// address for the QR code (SHA-1, 6 digits, 30 s)' }) otpauth_uri!: string;
}

/** The recovery codes, shown once when two-factor sign-in is turned on; each works once. */
export class TwoFactorRecoveryCodesView {
  @ApiProperty({ type: [String], description: '10 one-time codes, stored only hashed' }) recovery_codes!: string[];
}

/** A password that was right on an account with two-factor sign-in: the second step is `POST /auth/login/2fa`. */
export class AdminLoginChallengeView {
  @ApiProperty({ enum: [true] }) two_factor_required!: true;
  @ApiProperty({ description: 'opaque, single use, valid for 5 minutes' }) challenge!: string;
  @ApiProperty({ type: String, format: 'date-time' }) expires_at!: string;
}
