/** The shopper's words around LINE Pay (checkout, the payment result, the order's history). */

/** Under LINE Pay at checkout: what happens after 「確認付款」. */
export const LINE_PAY_NEXT_STEP = '將前往 LINE Pay 完成付款，付款後自動回到本店';

/** The shopper cancelled on LINE Pay's page: the attempt's message and the history note. */
export const LINE_PAY_CANCELLED = '已取消 LINE Pay 付款';
