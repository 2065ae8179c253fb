// Words parents and the operator see about their data (docs/architecture.md, "Your data").
export const PRIVACY_MESSAGES = {
  passwordNeeded: 'Please enter your password',
  passwordWrong: 'That password is not right',
  tooManyTries: 'Too many wrong passwords. Please wait 15 minutes and try again.',
  confirmNeeded: 'Please tick the box to confirm you want your account deleted',
  noAccount: 'There is no account with that email address',
  operatorAccount: 'This is an operator account: it cannot be deleted here. Ask whoever hosts the shop.',
  openOrder:
    'You have an order that has not shipped yet (or a pre-order). We need your details to send it: once it has shipped, you can delete your account. To stop it instead, cancel the pre-order on your Orders tab or contact us.',
  openPayment: 'A payment you started is still being settled. Please try again in 30 minutes.',
  exportTitle: 'Your data was not downloaded',
  deleteTitle: 'Your account was not deleted',
  deleted: {
    title: 'Your account has been deleted',
    text: 'Everything we held about you is gone, except your orders, which we keep for tax without your name, email or street. A confirmation is on its way to your inbox.',
  },
};
