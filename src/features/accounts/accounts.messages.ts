import { MAX_EMAIL_LENGTH } from '../../lib/email.ts';

export const MIN_PASSWORD_LENGTH = 6;
/** Long enough for any passphrase; a bound so that no request makes the server hash megabytes. */
export const MAX_PASSWORD_LENGTH = 200;

// Words exactly as parents see them (docs/architecture.md, "Words parents see").
export const ACCOUNT_MESSAGES = {
  missingLogin: { title: 'Missing Information', text: 'Please fill in all fields' },
  loginFailed: { title: 'Login Failed', text: 'Invalid email or password' },
  welcomeBack: { title: 'Welcome back!', text: 'You are now signed in.' },
  signupMissing: 'Please fill in all required fields',
  badEmail: 'Please enter a valid email address',
  emailTooLong: `Email addresses can be at most ${MAX_EMAIL_LENGTH} characters long`,
  emailTaken: 'This email is already registered. Please use a different email or sign in.',
  emailAvailable: 'Email is available!',
  // At guest checkout, under 'already registered': the parent who paid with us before signs in there and then.
  returningParent: {
    text: 'Welcome back! Enter your password below and sign in: your cart and the details you typed are kept.',
    button: 'Sign in and continue',
    busy: 'Signing in...',
  },
  emailUnverified: 'Unable to verify email. Please try again.',
  passwordsDiffer: 'Passwords do not match',
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
  signupFailed: { title: 'Signup Failed', text: 'Could not create account' },
  accountCreated: { title: 'Account Created!', text: 'Welcome to Little Lantern Books.' },
  resetMissing: 'Please enter your email address',
  resetFailed: { title: 'Reset Failed', text: 'Could not process password reset' },
  resetSent: {
    title: 'Password Reset Sent',
    text: 'If an account exists for that email, a reset link is on its way. It can take 5-10 minutes to arrive; please wait 30 minutes before asking for another.',
  },
  firstNameRequired: 'First name is required.',
  profileUpdated: { title: 'Profile Updated', text: 'Your details have been saved.' },
  addressSaved: { title: 'Address Saved', text: 'Your shipping address will be filled in at checkout.' },
  addressFailed: { title: 'Address Not Saved', text: 'Please check the fields marked below.' },
  updateFailed: { title: 'Update Failed', text: 'Failed to update profile' },
  newPasswordsDiffer: 'New passwords do not match.',
  passwordChanged: { title: 'Password Changed', text: 'Your password has been updated.' },
  passwordChangeFailed: { title: 'Password Change Failed', text: 'Failed to change password' },
  currentPasswordWrong: 'Your current password is not correct.',
  loggedOut: { title: 'Logged Out', text: 'See you again soon!' },
  logoutFailed: 'Failed to log out',
  accessDenied: { title: 'Access Denied', text: 'Please log in to access your dashboard.' },
  resetLinkInvalid: 'This reset link has expired or was already used. Please ask for a new one.',
  temporaryExpired: 'Your temporary password has expired. Please use "Forgot password?" to get a reset link.',
  tooManyAttempts: 'Too many attempts from your network. Please wait a few minutes and try again.',
  tooManySignups: 'Too many new accounts from your network. Please wait an hour and try again.',
  // The second factor (docs/admin.md, "Becoming an operator"): after the password, and again to change it.
  secondStepNeeded: 'Your password is right. To finish signing in, enter the code from your authenticator app (or a recovery code).',
  secondStepExpired: { title: 'Sign-in not finished', text: 'Your sign-in waited too long for its code. Please sign in again.' },
  codeNeeded: 'Please enter the 6-digit code from your authenticator app, or a recovery code.',
  codeTooLong: 'That code is too long.',
} as const;

/**
 * What each field says beside itself when a form is refused (src/web/form-problems.ts); the
 * summary above the form may lead with the spec's words for the group ('Please fill in all
 * required fields').
 */
export const FIELD_MESSAGES = {
  firstName: 'Please enter your first name.',
  lastName: 'Please enter your last name.',
  email: 'Please enter your email address.',
  password: 'Please enter your password.',
  choosePassword: 'Please choose a password.',
  confirmPassword: 'Please type your password again.',
  currentPassword: 'Please enter your current password.',
  newPassword: 'Please choose a new password.',
  confirmNewPassword: 'Please type your new password again.',
  address: 'Please enter your street address.',
  city: 'Please enter your city.',
  zipCode: 'Please enter your ZIP code.',
  zipCodeDigits: 'Please enter a 5-digit ZIP code.',
} as const;

/** The API's answer for a secured account: go to the failed-login screen (docs/architecture.md, "Sign-in, sessions and lockout"). */
export const FAILED_LOGIN_MARKER = 'REDIRECT_TO_FAILED_LOGIN';
export const FAILED_LOGIN_URL = '/failedlogin';
