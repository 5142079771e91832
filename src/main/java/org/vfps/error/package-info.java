/**
 * The one failure type of the service: every domain and storage failure a client may see is a
 * {@link org.vfps.error.ServiceException} with an {@link org.vfps.error.ErrorCode}, mapped once by
 * each protocol edge. {@link org.vfps.error.ConstantNames} names enum constants as they are stored
 * or sent, and refuses a name no constant has, and {@link org.vfps.error.ConstantNumbers} looks up
 * the constant of a stored or sent number, for every package that may use this one.
 */
package org.vfps.error;
