/**
 * The one failure type of the service: every domain and storage failure a client may see is a
 * {@link org.vfps.error.ServiceException} with an {@link org.vfps.error.ErrorCode}, mapped once by
 * each protocol edge.
 */
package org.vfps.error;
